// Where a run's physvec_runtime files live: inside the sandbox's private dir of the work dir (never
// collected as produced files, writable by the run's uid), and the environment that tells the
// runtime. The same paths serve the cold and the warm start: the worker only reads files.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RunStatePaths {
  progressFile: string;
  checkpointDir: string;
}

export function runStatePaths(privateDir: string): RunStatePaths {
  return { progressFile: path.join(privateDir, 'progress.json'), checkpointDir: path.join(privateDir, 'checkpoint') };
}

/** Variables the runtime reads (any language may use the same two files). */
export function runStateEnv(privateDir: string): Record<string, string> {
  const p = runStatePaths(privateDir);
  return { PHYSVEC_PROGRESS_FILE: p.progressFile, PHYSVEC_CHECKPOINT_DIR: p.checkpointDir };
}

/** The directory holding the `physvec_runtime` Python package (put on the script's PYTHONPATH, read-only). */
export const PYTHON_RUNTIME_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../runtime/python');
