// Script structure: element functions, run_ functions and main, as the verifiers need them.
export { parseScript } from './parse-script.js';
export { checkStructure, inspectScript } from './check-structure.js';
export { roleOf, intendedCategory } from './categories.js';
export { ScriptSyntaxError } from './source-text.js';
