// Live progress and checkpoints of sandbox runs (the worker side of physvec_runtime).
export { RunStateWatcher, previousRunState } from './watcher.js';
export { runStateEnv, runStatePaths, PYTHON_RUNTIME_DIR } from './paths.js';
export { checkpointLimitsFromEnv, type CheckpointLimits } from './checkpoint-sync.js';
