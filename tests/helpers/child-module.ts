// A piece of module code run in a fresh `node --import tsx` child — for what must happen in a process
// of its own (it raises its priority, warms a python, exits) — and the JSON it prints last.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../lib/paths.js';

/** An `import(…)` specifier for a repo file, for use inside the child's code. */
export const repoModule = (p: string): string => JSON.stringify(pathToFileURL(path.join(repoRoot, p)).href);

export function runChildModule<T>(code: string, env: NodeJS.ProcessEnv, timeoutMs: number): T {
  const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout.trim().split('\n').at(-1)!) as T;
}
