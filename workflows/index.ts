// Every workflow the workers register. Workflow code is deterministic orchestration only.
export { smokeReproduction } from './smoke.js';
export { reproduction } from './reproduction/index.js';
export { referenceValidation } from './validation/index.js';
