// Evidence that says what happened (issue 27): a killed run says why and under which limit, a
// full-size run whose script never uses the full-size values is flagged, and the full-size note is
// not appended to the limiting cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { digestRun, killedDescription } from '../../activities/pipeline/run-job.js';
import { jobTimeoutMs } from '../../activities/pipeline/job-limits.js';
import { checkFullSize } from '../../lib/tasks/size-check.js';
import { applyTaskSize } from '../../lib/tasks/full-size.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { repoRoot } from '../../lib/paths.js';
import { loadToolchainConfig } from '../../lib/toolchains/config.js';
import { prepareTask } from '../../activities/pipeline/prepare-task.js';
import type { ToolchainStatus } from '../../schemas/toolchain.js';

const TASK = path.join(repoRoot, 'data', 'tasks', 'dmrg', 'task_dmrg_tezuka_1a.json');

test('a killed run says why, with its limit', () => {
  assert.equal(killedDescription({ timedOut: true, killedReason: 'timeout' }, 300_000), 'timed out (limit 300 s)');
  assert.equal(killedDescription({ timedOut: false, killedReason: 'memory' }), "killed: out of memory (the run's memory limit)");
  assert.equal(killedDescription({ timedOut: false, killedReason: 'files' }), "killed: it created more files and directories than the run's file limit");
  assert.equal(killedDescription({ timedOut: false, killedReason: null }), undefined);
  const digest = digestRun('full', { exitCode: null, timedOut: true, killedReason: 'timeout', durationMs: 300_000, stdoutTail: '', stderrTail: 'TeNPy warning', files: [] } as never, { kind: 'full' }, 300_000);
  assert.equal(digest.killed, 'timed out (limit 300 s)');
  assert.equal(digestRun('ok', { exitCode: 0, timedOut: false, killedReason: null, durationMs: 1, stdoutTail: '', stderrTail: '', files: [] } as never).killed, undefined);
  const skipped = digestRun('full', { exitCode: 0, timedOut: false, killedReason: null, durationMs: 1, stdoutTail: '', stderrTail: '', files: [], checkpointSkipped: '300 files, more than the 64 allowed' } as never);
  assert.equal(skipped.checkpointSkipped, '300 files, more than the 64 allowed', 'a checkpoint breach reaches the digest the report shows');
});

test('a run killed at its CPU limit says so with CPU, wall and load; memory, disk and files kills name their limits', () => {
  const limits = { timeoutMs: 300_000, memoryMb: 3072, cpuSeconds: null, maxProcesses: 256, diskMb: 4096, maxFiles: 100_000 };
  const killed = { exitCode: null, timedOut: true, killedReason: 'timeout', durationMs: 640_400, stdoutTail: '', stderrTail: 'TeNPy warning', files: [], limits, usage: { memoryPeakBytes: null, diskPeakBytes: null, cpuMs: 312_200, load1: 41 } };
  assert.equal(digestRun('full', killed as never, { kind: 'full' }, 300_000).killed, 'full script run exceeded its 300 s CPU limit after 312 s CPU, 640 s wall at load 41');
  assert.equal(killedDescription({ timedOut: false, killedReason: 'memory', limits, usage: { memoryPeakBytes: 3221225472, diskPeakBytes: null } }), "killed: out of memory (the run's memory limit of 3072 MB, peak 3072 MB)");
  assert.equal(killedDescription({ timedOut: false, killedReason: 'disk', limits, usage: { memoryPeakBytes: null, diskPeakBytes: null } }), "killed: the run's disk limit of 4096 MB was reached");
  assert.equal(killedDescription({ timedOut: false, killedReason: 'files', limits, usage: { memoryPeakBytes: null, diskPeakBytes: null } }), "killed: it created more files and directories than the run's file limit of 100000");
});

test('each kind of job gets a CPU limit proportionate to it: a unit test a tenth of the script\'s, at least 10 s', () => {
  assert.equal(jobTimeoutMs({ kind: 'unit', function: 'f' }, 300_000), 30_000);
  assert.equal(jobTimeoutMs({ kind: 'unit', function: 'f' }, 60_000), 10_000);
  assert.equal(jobTimeoutMs({ kind: 'unit', function: 'f' }, 5_000), 5_000, 'never more than the script\'s own');
  for (const purpose of [{ kind: 'full' }, { kind: 'assertion', case: 'limiting:0' }, { kind: 'convergence', case: 'convergence:0', value: 64 }, { kind: 'level', runFunction: 'run_x', level: 1, totalLevels: 2, introduces: ['a'] }] as const) {
    assert.equal(jobTimeoutMs(purpose as never, 300_000), 300_000, purpose.kind);
  }
});

test('a full-size run whose script has only the scaled values is flagged', () => {
  const params = [{ name: 'L', full: 200, used: 12 }];
  const scaled = checkFullSize('def main():\n    L = 12\n    plt.title("L=12")\n', params);
  assert.match(scaled.warning ?? '', /never uses the full-size L = 200 \(it has the scaled 12\)/);
  assert.equal(checkFullSize('def main():\n    L = 200\n', params).warning, undefined);
  assert.equal(checkFullSize('L = 2000\nx = 1.200\n', params).findings[0]!.fullSeen, false, 'a literal, not a substring');
  assert.equal(checkFullSize('chis = [100, 200]\n', [{ name: 'chi', full: [100, 200], used: [20] }]).warning, undefined);
});

test('the full-size note goes to the request, not to limiting cases; the context keeps the full values', async () => {
  const store = new ArtifactStore(mkdtempSync(path.join(tmpdir(), 'physvec-run-evidence-')));
  const installed = async (profiles?: readonly string[]): Promise<ToolchainStatus[]> =>
    loadToolchainConfig().profiles.filter((p) => !profiles || profiles.includes(p.name)).map((p) => ({ profile: p.name, language: p.language, topics: p.topics, detectMs: 1, interpreter: '/x', available: true, state: 'available' as const, versions: { [p.primaryPackage]: '1.0' }, version: '1.0' }));
  const ctx = await prepareTask(store, { taskFile: TASK, size: 'full' }, installed);
  assert.match(ctx.request, /L = 200 \(instead of 12\)/);
  assert.ok(ctx.limitingCases.length > 0);
  for (const c of ctx.limitingCases) assert.doesNotMatch(c.content, /Full-size run|L = 200/, `${c.id}: no full-size hint on a limiting case`);
  assert.deepEqual(ctx.fullSize?.parameters.find((p) => p.name === 'L'), { name: 'L', full: 200, used: 12 });
  const scaled = await prepareTask(store, { taskFile: TASK }, installed);
  assert.equal(scaled.fullSize, undefined);
  assert.equal(applyTaskSize(undefined, undefined, 'r', []).note, null);
});
