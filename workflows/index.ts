// Every workflow the workers register. Workflow code is deterministic orchestration only.
export { smokeReproduction } from './smoke.js';
