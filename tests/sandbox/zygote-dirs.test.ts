// Nothing of a warm worker stays in the temp dir (TMPDIR, else /tmp): a process that warmed its python removes its scratch dirs
// when it exits, and those of a worker that was killed go at the next worker's start.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { repoRoot } from '../../lib/paths.js';
import { runChildModule } from '../helpers/child-module.js';
import { sweepStaleZygoteDirs, zygoteHomeDir, zygotePayloadDir } from '../../runners/sandbox/zygote-dirs.js';
import { useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();

test('a worker that warmed its python leaves nothing in the temp dir when it exits', { timeout: 240_000 }, (t) => {
  const prestart = pathToFileURL(path.join(repoRoot, 'runners/sandbox/prestart.ts')).href;
  const dirs = pathToFileURL(path.join(repoRoot, 'runners/sandbox/zygote-dirs.ts')).href;
  // The event loop simply ends (no process.exit): the zygote is unref'd, its dirs go in 'exit'.
  const code = `const { warmUpSandbox } = await import(${JSON.stringify(prestart)});
const { zygoteHomeDir } = await import(${JSON.stringify(dirs)});
const r = await warmUpSandbox();
console.log(JSON.stringify({ pid: process.pid, ok: r.ok, reason: r.ok ? null : r.reason, home: (await import('node:fs')).existsSync(zygoteHomeDir(process.pid)) }));`;
  const r = runChildModule<{ pid: number; ok: boolean; reason: string | null; home: boolean }>(code, { PHYSVEC_SANDBOX_WARM: '1', PHYSVEC_SANDBOX_PRESTART: '0' }, 220_000);
  if (!r.ok) return t.skip(`warm starts are unavailable on this host: ${r.reason}`);
  assert.equal(r.home, true, 'the warm python had its home in /tmp while the worker ran');
  assert.equal(existsSync(zygoteHomeDir(r.pid)), false, `${zygoteHomeDir(r.pid)} is left behind`);
  assert.equal(existsSync(zygotePayloadDir(r.pid)), false, `${zygotePayloadDir(r.pid)} is left behind`);
});

test('the dirs of dead workers are swept, those of live ones kept', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'physvec-zygote-sweep-'));
  const dead = Number(execFileSync('/bin/sh', ['-c', 'echo $$'], { encoding: 'utf8' }).trim());
  for (const dir of [zygoteHomeDir(dead, tmp), zygotePayloadDir(dead, tmp), zygoteHomeDir(process.pid, tmp), zygoteHomeDir(1, tmp)]) {
    mkdirSync(path.join(dir, 'matplotlib'), { recursive: true });
    writeFileSync(path.join(dir, 'matplotlib', 'fontlist.json'), '{}');
  }
  const removed = sweepStaleZygoteDirs(tmp).sort();
  assert.deepEqual(removed, [zygotePayloadDir(dead, tmp), zygoteHomeDir(dead, tmp)].sort());
  assert.equal(existsSync(zygoteHomeDir(process.pid, tmp)), true, 'this process\'s own dir stays');
  assert.equal(existsSync(zygoteHomeDir(1, tmp)), true, 'a live pid\'s dir stays');
});
