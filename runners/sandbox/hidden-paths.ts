// What a script must not see, even read-only: physvec's own state (artifacts of other runs, LLM
// transcripts), the code and data beside it (task truths, rubrics, .env files), the benchmark
// dataset (its ScientificResults are the answer key a generated script could otherwise read),
// and the worker user's home (credentials, tool configs). Operators add more with
// PHYSVEC_SANDBOX_HIDE (colon-separated). Anything an interpreter needs from inside these is
// bound back read-only by mounts.ts.
import os from 'node:os';
import path from 'node:path';
import { artifactsDir, qmpBenchRoot, repoRoot, stateDir } from '../../lib/paths.js';

export function pathsHiddenFromScripts(): string[] {
  const extra = (process.env.PHYSVEC_SANDBOX_HIDE ?? '').split(path.delimiter).filter((p) => path.isAbsolute(p));
  return [stateDir(), artifactsDir(), repoRoot, path.dirname(qmpBenchRoot), os.homedir(), ...extra];
}
