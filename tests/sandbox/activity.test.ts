// The runScript activity on a real Temporal server: results, bad input, cancellation and worker
// shutdown (the sandbox is killed and the attempt is retried on another worker).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { WorkflowFailedError, type Client, type Connection } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, CancelledFailure } from '@temporalio/common';
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
