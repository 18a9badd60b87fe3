// The runScript activity on a real Temporal server: results, bad input, cancellation and worker
// shutdown (the sandbox is killed and the attempt is retried on another worker); and, in a mock
// activity context that records every heartbeat, the beats after the script has ended and the
// result of a checkpoint too large to snapshot.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { WorkflowFailedError, type Client, type Connection } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { NativeConnection, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { createSandboxActivities, WORKER_SHUTDOWN_FAILURE } from '../../activities/sandbox/run-script.js';
import type { SandboxResult } from '../../schemas/sandbox.js';
import { ensureServer, testClient, uniqueQueue } from '../helpers/temporal.js';
import { hostileScript, pidsWithMarker, testStore, useTestStateDir, waitFor } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();
const workflowsPath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'hostile', 'run-script.workflow.ts');
const quietLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

describe('runScript activity on a real Temporal server', () => {
  let client: Client;
  let connection: Connection;
  let nativeConnection: NativeConnection;
  let workflowBundle: { code: string };
  // One worker serves the ordinary tests; the shutdown test brings its own two.
  const taskQueue = uniqueQueue('sandbox');
  let shared: Worker | undefined;
  let sharedRun: Promise<void> | undefined;

  before(async () => {
    const address = await ensureServer();
    ({ client, connection } = await testClient());
    nativeConnection = await NativeConnection.connect({ address });
    workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: quietLogger });
    shared = await makeWorker(taskQueue);
    sharedRun = shared.run();
  });
  after(async () => {
    if (shared?.getState() === 'RUNNING') shared.shutdown();
    await sharedRun;
    await connection?.close();
    await nativeConnection?.close();
  });

  function makeWorker(taskQueue: string): Promise<Worker> {
    return Worker.create({
      connection: nativeConnection,
      namespace: 'default',
      taskQueue,
      workflowBundle,
      activities: createSandboxActivities(store, { heartbeatMs: 300 }),
      // Keep shutdown from waiting on sticky workflow tasks.
      maxCachedWorkflows: 0,
    });
  }

  test('a script runs and its small result comes back through the history', async () => {
    const result: SandboxResult = await client.workflow.execute('runScriptWorkflow', {
      taskQueue,
      workflowId: `sandbox-ok-${randomUUID()}`,
      args: [{ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print("hello from the sandbox")' }], timeoutMs: 60_000 }],
    });
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdoutTail, 'hello from the sandbox\n');
    assert.ok(Buffer.byteLength(JSON.stringify(result)) < 16 * 1024);
  });

  test('a bad request fails at once, non-retryably, as BadInputError naming the field', async () => {
    const err = await client.workflow
      .execute('runScriptWorkflow', {
        taskQueue,
        workflowId: `sandbox-bad-${randomUUID()}`,
        args: [{ language: 'python', entry: 'main.py', files: [{ path: '../main.py', content: 'print(1)' }] }],
      })
      .then(() => null, (e: unknown) => e);
    assert.ok(err instanceof WorkflowFailedError);
    assert.ok(err.cause instanceof ActivityFailure);
    const cause = err.cause.cause;
    assert.ok(cause instanceof ApplicationFailure);
    assert.equal(cause.type, 'BadInputError');
    assert.equal(cause.nonRetryable, true);
    assert.match(cause.message, /files\.0\.path: .*climbs out/);
  });

  test('cancelling the workflow kills the sandbox', async () => {
    const marker = `physvec-activity-cancel-${randomUUID()}`;
    const handle = await client.workflow.start('runScriptWorkflow', {
      taskQueue,
      workflowId: `sandbox-cancel-${randomUUID()}`,
      args: [{ language: 'python', entry: 'main.py', files: [hostileScript('spawn-grandchildren.py')], args: [marker], timeoutMs: 120_000 }],
    });
    await waitFor(() => pidsWithMarker(marker).length >= 5, 30_000, 'the sandboxed script to start');
    await handle.cancel();
    const err = await handle.result().then(() => null, (e: unknown) => e);
    assert.ok(err instanceof WorkflowFailedError);
    assert.ok(err.cause instanceof CancelledFailure || err.cause?.cause instanceof CancelledFailure, String(err.cause));
    assert.deepEqual(pidsWithMarker(marker), [], 'sandbox processes outlived the cancellation');
  });

  test('worker shutdown kills the sandbox and the attempt is retried on another worker', async () => {
    const taskQueue = uniqueQueue('sandbox-shutdown');
    const marker = `physvec-activity-shutdown-${randomUUID()}`;
    const handle = await client.workflow.start('runScriptWorkflow', {
      taskQueue,
      workflowId: `sandbox-shutdown-${randomUUID()}`,
      args: [{ language: 'python', entry: 'main.py', files: [hostileScript('sleep-then-exit.py')], args: ['4', marker], timeoutMs: 120_000 }],
    });
    const first = await makeWorker(taskQueue);
    const firstRun = first.run();
    await waitFor(() => pidsWithMarker(marker).length > 0, 30_000, 'the first attempt to start');
    first.shutdown();
    await firstRun;
    assert.deepEqual(pidsWithMarker(marker), [], 'the first attempt survived worker shutdown');

    const second = await makeWorker(taskQueue);
    const result = (await second.runUntil(handle.result())) as SandboxResult;
    assert.equal(result.exitCode, 0, result.stderrTail);
    assert.match(result.stdoutTail, /done/);

    const history = await handle.fetchHistory();
    const started = history.events!.find((e) => e.activityTaskStartedEventAttributes)!.activityTaskStartedEventAttributes!;
    assert.equal(started.attempt, 2);
    assert.equal(started.lastFailure?.applicationFailureInfo?.type, WORKER_SHUTDOWN_FAILURE);
    assert.equal(started.lastFailure?.applicationFailureInfo?.nonRetryable ?? false, false);
  });
});

describe('runScript activity heartbeats and results (mock activity context)', () => {
  /** One activity run; every heartbeat's details, in order. */
  async function runActivity(request: Parameters<ReturnType<typeof createSandboxActivities>['runScript']>[0], heartbeatMs: number): Promise<{ result: SandboxResult; beats: Record<string, unknown>[] }> {
    const env = new MockActivityEnvironment();
    const beats: Record<string, unknown>[] = [];
    env.on('heartbeat', (d: unknown) => beats.push(d as Record<string, unknown>));
    const result = (await env.run(createSandboxActivities(store, { heartbeatMs }).runScript, request)) as SandboxResult;
    return { result, beats };
  }

  test('a script that leaves 40 000 files: the activity keeps heartbeating while they are collected and removed', async () => {
    const t0 = performance.now();
    const { result, beats } = await runActivity({ language: 'python', entry: 'main.py', files: [hostileScript('make-files.py')], args: ['40000', '0'], timeoutMs: 300_000 }, 50);
    const totalMs = performance.now() - t0;
    assert.equal(result.exitCode, 0, result.stderrTail);
    const after = beats.filter((b) => b.phase === 'collecting' || b.phase === 'cleaning');
    console.log(`# 40 000 files: script ${(result.durationMs / 1000).toFixed(1)} s, activity ${(totalMs / 1000).toFixed(1)} s; ${beats.length} heartbeats, ${after.length} after the script's exit (${after.filter((b) => b.phase === 'cleaning').length} while cleaning)`);
    assert.ok(beats.some((b) => b.phase === 'running'), 'beats while the script runs');
    // Beyond the one beat on entering each phase: the ticker went on.
    assert.ok(after.length >= 4, `${after.length} heartbeats after the script's exit`);
    assert.ok(after.some((b) => b.phase === 'cleaning'), 'a beat during the work dir\'s removal');
    const elapsed = after.map((b) => b.elapsedMs as number);
    assert.ok(elapsed.at(-1)! > elapsed[0]!, 'the beats after the exit are a live ticker, not one repeated state');
  });

  test('a checkpoint dir of 2 000 files is not snapshotted, and the result says why', async () => {
    const { result, beats } = await runActivity({ language: 'python', entry: 'main.py', files: [hostileScript('make-files.py')], args: ['2000', '0', 'checkpoint', '1.5'], timeoutMs: 120_000 }, 200);
    assert.equal(result.exitCode, 0, result.stderrTail);
    assert.match(result.checkpointSkipped ?? '', /more than 128 entries, more than the 64 files allowed/);
    // A snapshot taken while the script had made only a few files is a valid checkpoint; none holds more than the cap.
    const snapshotted = beats.map((b) => (b.checkpoint as { files?: number } | undefined)?.files ?? 0);
    assert.ok(Math.max(...snapshotted) <= 64, `snapshots of ${Math.max(...snapshotted)} files`);
  });
});
