// Live progress and checkpoints of sandbox runs (the worker side of physvec_runtime).
export { RunStateWatcher, previousRunState } from './watcher.js';
