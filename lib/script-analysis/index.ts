// Script structure: element functions, run_ functions and main, as the verifiers need them.
export { parseScript } from './parse-script.js';
export { inspectScript } from './check-structure.js';
