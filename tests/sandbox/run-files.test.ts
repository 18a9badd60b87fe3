// A run that makes a great many files: the file cap kills it long before its timeout, and the
// whole runSandboxed — collection and removal of what it left included — comes back in bounded
// time. Prints what it measured: files made before the kill, the peak count, each phase's time.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { probeIsolation, runSandboxed, sandboxRoot } from '../../runners/sandbox/index.js';
import type { Phases } from '../../runners/sandbox/phase-clock.js';
import { hostileScript, testStore, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();

/** The last "made N" the script printed: how many files it had made when it was stopped. */
function filesMade(stdout: string): number {
  return Number([...stdout.matchAll(/^made (\d+)$/gm)].at(-1)?.[1] ?? 0);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

test('200 000 empty files under a 20 000 file cap: killed: files well before the timeout, and the run returns within a bounded time', async (t) => {
  const probe = await probeIsolation();
  if (!probe.du) return t.skip('needs du: the file cap is watched with it');
  let phases: Phases = [];
  const t0 = performance.now();
  const result = await runSandboxed(
    { language: 'python', entry: 'main.py', files: [hostileScript('make-files.py')], args: ['200000', '0'], maxFiles: 20_000, timeoutMs: 300_000 },
    { store, onPhases: (p) => (phases = p) },
  );
  const totalMs = performance.now() - t0;
  const made = filesMade(result.stdoutTail);
  const phase = (name: string) => phases.filter(([n]) => n === name || n.startsWith(`${name}:`)).reduce((a, [, ms]) => a + ms, 0);
  console.log(
    `# made ${made} files before the kill (peak counted ${result.usage.filesPeak}), script ${seconds(result.durationMs)}, ` +
      `whole run ${seconds(totalMs)}: last check ${seconds(phase('straggler sweep, last disk/memory check'))}, collect ${seconds(phase('collect files'))}, clean-up ${seconds(phase('clean-up'))}`,
  );
  assert.equal(result.killedReason, 'files', `stdout: ${result.stdoutTail.slice(-300)} stderr: ${result.stderrTail.slice(-300)}`);
  assert.equal(result.ok, false);
  assert.doesNotMatch(result.stdoutTail, /all made/, 'the script was stopped before it made all its files');
  assert.ok(result.usage.filesPeak! > 20_000, `files peak ${result.usage.filesPeak}`);
  assert.equal(result.limits.maxFiles, 20_000);
  // Generous bounds (a shared, loaded machine): the point is minutes vs. seconds, not a tight figure.
  assert.ok(result.durationMs < 150_000, `the script ran ${seconds(result.durationMs)} of its 300 s`);
  assert.ok(totalMs - result.durationMs < 60_000, `collection and clean-up took ${seconds(totalMs - result.durationMs)}`);
  // The collection walk stopped at its own cap, and says where.
  assert.deepEqual(result.skippedFiles[0], { path: '.', bytes: 0, reason: 'too-many' });
  assert.ok(result.files.length <= 32);
  assert.equal(existsSync(path.join(sandboxRoot(), result.runId)), false, 'the work dir was removed');
});

test('a run under its file cap is not killed, and its count is reported', async (t) => {
  const probe = await probeIsolation();
  if (!probe.du) return t.skip('needs du: the file cap is watched with it');
  const result = await runSandboxed(
    { language: 'python', entry: 'main.py', files: [hostileScript('make-files.py')], args: ['3000', '500'], maxFiles: 5_000, timeoutMs: 120_000 },
    { store },
  );
  assert.equal(result.killedReason, null, result.stderrTail);
  assert.equal(result.exitCode, 0);
  // 3000 files in 6 dirs, plus the input and the sandbox's own scratch.
  assert.ok(result.usage.filesPeak! >= 3006 && result.usage.filesPeak! < 3100, `files peak ${result.usage.filesPeak}`);
});
