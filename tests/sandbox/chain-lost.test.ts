// A run whose chain launcher dies under it (runners/sandbox/launcher.ts: the process that forks and
// reaps the sandbox chains) has no result: its end can no longer be known. The activity reports a
// retryable ChainLost failure, not counted as the run's own failure, and the worker's next run
// starts a new launcher rather than falling back to node's spawn for the rest of its life.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { CHAIN_LOST_FAILURE, createSandboxActivities } from '../../activities/sandbox/run-script.js';
import { chainLauncher } from '../../runners/sandbox/launcher.js';
import type { SandboxRequestInput } from '../../schemas/sandbox.js';
import { testStore, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();

test('the launcher killed mid-run: a retryable ChainLost failure, not the run\'s own; the next run gets a new launcher', { timeout: 120_000 }, async () => {
  const launcher = chainLauncher();
  assert.ok(launcher, 'PHYSVEC_SANDBOX_LAUNCHER is not 0 here');
  const { runScript } = createSandboxActivities(store, { heartbeatMs: 100 });
  const sleeper = 'import time\nprint("waiting", flush=True)\ntime.sleep(600)\n';
  const req: SandboxRequestInput = { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: sleeper }], timeoutMs: 60_000, label: 'lost' };
  const env = new MockActivityEnvironment({});
  const beats: Record<string, unknown>[] = [];
  let killed: number | undefined;
  env.on('heartbeat', (d: Record<string, unknown>) => {
    beats.push(d);
    // The script runs (it printed): the launcher that started its chain dies.
    if (killed === undefined && Number(d.stdoutBytes) > 0 && launcher.pid) {
      killed = launcher.pid;
      process.kill(killed, 'SIGKILL');
    }
  });
  const started = Date.now();
  const failure = await env.run(runScript, req).then(() => null, (e: unknown) => e);
  assert.ok(killed, 'the script ran and its launcher was killed');
  assert.ok(failure instanceof ApplicationFailure, `expected an ApplicationFailure, got ${String(failure)}`);
  assert.equal(failure.type, CHAIN_LOST_FAILURE, failure.message);
  assert.equal(failure.nonRetryable, false);
  assert.match(failure.message, /chain launcher exited.*could not be known; the run will be retried/);
  assert.equal(beats.at(-1)?.ownFailures, 0, 'not counted as the run\'s own failure');
  assert.ok(Date.now() - started < 60_000, 'noticed at once, not at the run\'s limit');

  // The next run: a new launcher starts it, and it ends normally.
  const next: SandboxRequestInput = { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print(6 * 7)\n' }], timeoutMs: 60_000 };
  const ok = (await new MockActivityEnvironment({}).run(runScript, next)) as Awaited<ReturnType<typeof runScript>>;
  assert.equal(ok.ok, true, ok.stderrTail);
  assert.match(ok.stdoutTail, /42/);
  assert.equal(launcher.unavailable, null);
  assert.ok(launcher.pid && launcher.pid !== killed, `a new launcher (pid ${launcher.pid}, the killed one was ${killed})`);
});
