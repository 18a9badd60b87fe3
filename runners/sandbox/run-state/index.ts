// Live progress and checkpoints of sandbox runs (the worker side of physvec_runtime).
export { RunStateWatcher, checkpointBreachLine, previousRunState } from './watcher.js';
export { checkpointStoreFor } from './checkpoint-store.js';
