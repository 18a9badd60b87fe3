// Every workflow the workers register. Workflow code is deterministic orchestration only.
export { smokeReproduction } from './smoke.js';
export { reproduction } from './reproduction/index.js';
export { referenceValidation } from './validation/index.js';
export { campaign } from './campaign/index.js';
export { reactBaseline } from './baselines/react.js';
export { oneShotBaseline } from './baselines/one-shot.js';
