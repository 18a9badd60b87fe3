// Issue 24.3: an attempt the server handed to a live worker's poll but that never reached the worker
// (seen at load 85: "lost in delivery") is failed by that worker as TaskLost and retried well before
// the 60 s heartbeat timeout; attempts a worker did begin are never failed so. The loss is made the
// way it happens: a poll under the live worker's identity whose response is dropped (here: taken by
// this test, which then does nothing with it). Real dev server, real `physvec worker` processes.
// run-tests: mostly waits (alone, ~16 % of two cores: sleeping sandbox runs), so it also runs beside the CPU-bound files (scripts/run-tests.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { WorkflowHandle } from '@temporalio/client';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { waitFor } from '../helpers/poll.js';
import { pendingRun, type PendingRun } from '../helpers/pending-run.js';
import { RETRY_PRIORITY_KEY } from '../../workers/retry-priority.js';
import { BegunAttempts, GRACE_MS, lostAttempts, TASK_LOST, TASK_LOST_LINE, type PendingStarted } from '../../workers/undelivered-attempt-sweeper.js';
import { HEARTBEAT_TIMEOUT_MS } from '../../temporal-config/timeouts.js';
import { ATTEMPTS_DIR_ENV } from '../../workers/attempt-registry.js';

// This file's workers see only each other's deaths (the suite runs other workers on this host).
process.env[ATTEMPTS_DIR_ENV] = mkdtempSync(path.join(os.tmpdir(), 'physvec-attempts-test-'));
process.env.PHYSVEC_QUEUE_PREFIX = `lost-${randomUUID().slice(0, 8)}`;
const { taskQueues } = await import('../../lib/temporal/task-queues.js');
const { deploymentOptions } = await import('../../workers/versioning.js');
const { spawnWorker, stopWorker } = await import('../pipeline/drill-support.js');

test('an attempt counts as lost only when it is this worker\'s, was never begun here, never heartbeat, and started between the grace and the heartbeat timeout', () => {
  const now = 1_000_000_000;
  const me = '111@host';
  const begun = new BegunAttempts();
  const p = (o: Partial<PendingStarted>): PendingStarted => ({ workflowId: 'w', runId: 'r', activityId: '1', activityType: 'runScript', attempt: 1, startedAt: now - 30_000, lastHeartbeatAt: undefined, worker: me, taskQueue: 'q-simulation', ...o });
  begun.note('r', 'begun', 1, now);
  const cases: [string, PendingStarted, boolean][] = [
    ['lost', p({}), true],
    ['heartbeat before this attempt started', p({ activityId: 'hb-old', lastHeartbeatAt: now - 90_000 }), true],
    ['another worker\'s', p({ worker: '222@host' }), false],
    ['begun here', p({ activityId: 'begun' }), false],
    ['begun here, another attempt of it', p({ activityId: 'begun', attempt: 2 }), true],
    ['heartbeat since it started', p({ activityId: 'hb', lastHeartbeatAt: now - 5_000 }), false],
    ['within the grace', p({ startedAt: now - GRACE_MS + 1 }), false],
    ['near the heartbeat timeout (the server may start the next attempt)', p({ startedAt: now - HEARTBEAT_TIMEOUT_MS + 5_000 }), false],
    ['a dead worker\'s this process answers for', p({ activityId: 'dead', worker: '333@host' }), true],
    ['a dead worker\'s that heartbeat since it started', p({ activityId: 'dead-hb', worker: '333@host', lastHeartbeatAt: now - 1_000 }), false],
  ];
  const lost = new Set(lostAttempts(cases.map((c) => c[1]), me, begun, now, new Set(['333@host'])));
  for (const [what, c, expected] of cases) assert.equal(lost.has(c), expected, what);
});

const sleepScript = (s: number) => `import time\nfor i in range(${s}):\n    print(i, flush=True)\n    time.sleep(1)\nprint("done")\n`;

/** Take the run's sandbox task as worker `identity` would, and drop it: what a starved host does to a poll's answer. */
async function loseRunTask(connection: Awaited<ReturnType<typeof testClient>>['connection'], handle: WorkflowHandle, identity: string): Promise<number> {
  await waitFor('the sandbox run scheduled', async () => (await pendingRun(handle)) ?? undefined, 120_000, 200);
  const version = deploymentOptions()?.version;
  const taken = await connection.withDeadline(Date.now() + 70_000, () =>
    connection.workflowService.pollActivityTaskQueue({
      namespace: 'default',
      taskQueue: { name: taskQueues().simulation, kind: 1 },
      identity,
      ...(version ? { deploymentOptions: { deploymentName: version.deploymentName, buildId: version.buildId, workerVersioningMode: 2 } } : {}),
    }),
  );
  const takenAt = Date.now();
  assert.equal(taken.activityType?.name, 'runScript', 'the poll took the run\'s task');
  const startedAsLost = await pendingRun(handle);
  assert.equal(startedAsLost?.started, true);
  assert.equal(startedAsLost?.worker, identity, 'the server records the worker as the holder');
  return takenAt;
}

const startRun = (client: Awaited<ReturnType<typeof testClient>>['client'], seconds: number) =>
  client.workflow.start('smokeReproduction', {
    workflowId: `lost-${randomUUID().slice(0, 8)}`,
    taskQueue: taskQueues().orchestration,
    args: [{ taskId: 'lost', topic: 'drill', request: { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: sleepScript(seconds) }], timeoutMs: 600_000, label: 'full' } }],
  });

/** Attempt 1 failed and the run retried; how long after the loss. */
async function retried(handle: WorkflowHandle, lostAt: number): Promise<{ p: PendingRun; afterS: number }> {
  const p = await waitFor('the lost attempt failed and retried', async () => {
    const q = await pendingRun(handle);
    return q && q.attempt === 2 ? q : undefined;
  }, HEARTBEAT_TIMEOUT_MS + 30_000, 200);
  const afterS = (Date.now() - lostAt) / 1000;
  assert.equal(p.failureType, TASK_LOST, `attempt 1 ended by: ${p.failure}`);
  assert.equal(p.priorityKey, RETRY_PRIORITY_KEY, 'the retry goes before the queued tasks');
  assert.ok(afterS < HEARTBEAT_TIMEOUT_MS / 1000 - 5, `failed ${afterS.toFixed(1)} s after the loss (heartbeat timeout ${HEARTBEAT_TIMEOUT_MS / 1000} s)`);
  return { p, afterS };
}

test('a task lost on its way to a live worker is failed by that worker as TaskLost and retried before the heartbeat timeout; a begun attempt is not', { timeout: 600_000 }, async () => {
  await ensureServer();
  const { client, connection } = await testClient();
  // The orchestration worker runs the workflow; no simulation worker polls yet, so the run's sandbox
  // task waits until this test takes it under the orchestration worker's identity.
  const orchestration = spawnWorker('orchestration', {}, undefined, 'capture');
  let simulation: ReturnType<typeof spawnWorker> | undefined;
  try {
    await orchestration.ready;
    const identity = `${orchestration.proc.pid}@${os.hostname()}`;
    const handle = await startRun(client, 35);
    const { p: failed } = await retried(handle, await loseRunTask(connection, handle, identity));
    assert.match(failed.failure, new RegExp(`handed this attempt to worker ${identity} \\d+ s ago, but the worker never received it`));
    await waitFor('the worker said so', async () => TASK_LOST_LINE.test(orchestration.out()) || undefined, 10_000, 100);
    assert.match(orchestration.out(), /runScript \(workflow lost-\S+, activity \d+, attempt 1\) was handed to this worker/);

    // The retry runs on a real simulation worker for 35 s (three sweeps of each worker): begun, so never failed as lost.
    simulation = spawnWorker('simulation', {}, undefined, 'capture');
    const result = await handle.result();
    assert.equal(result.status, 'passed', JSON.stringify(result).slice(0, 500));
    const events = (await handle.fetchHistory()).events ?? [];
    const failures = events.filter((e) => e.activityTaskFailedEventAttributes || e.activityTaskTimedOutEventAttributes);
    assert.equal(failures.length, 0, 'a retry-in-place leaves no failed event; the last attempt completed');
    const started = events.filter((e) => e.activityTaskStartedEventAttributes?.attempt !== undefined && e.activityTaskStartedEventAttributes.attempt! >= 1);
    assert.ok(started.some((e) => e.activityTaskStartedEventAttributes!.attempt === 2), 'the run completed on its second attempt');
    assert.ok(!started.some((e) => (e.activityTaskStartedEventAttributes!.attempt ?? 0) > 2), 'the begun attempt was not failed as lost');
    assert.doesNotMatch(simulation.out(), TASK_LOST_LINE);
  } finally {
    await stopWorker(orchestration);
    if (simulation) await stopWorker(simulation);
    await connection.close();
  }
});

test('a task the server hands to a worker that died with a poll out is failed by the live worker that noticed the death', { timeout: 600_000 }, async () => {
  await ensureServer();
  const { client, connection } = await testClient();
  const dying = spawnWorker('orchestration', {}, undefined, 'capture');
  const survivor = spawnWorker('orchestration', {}, undefined, 'capture');
  let simulation: ReturnType<typeof spawnWorker> | undefined;
  try {
    await Promise.all([dying.ready, survivor.ready]);
    const dead = `${dying.proc.pid}@${os.hostname()}`;
    const handle = await startRun(client, 5);
    const lostAt = await loseRunTask(connection, handle, dead);
    await stopWorker(dying); // kill -9: the server answered its poll just before
    const { p: failed } = await retried(handle, lostAt);
    assert.match(failed.failure, new RegExp(`handed this attempt to worker ${dead} \\d+ s ago, after that worker had died .* worker ${survivor.proc.pid}@\\S+ of its host failed it`));
    await waitFor('the survivor said so', async () => TASK_LOST_LINE.test(survivor.out()) || undefined, 10_000, 100);
    assert.match(survivor.out(), new RegExp(`runScript \\(workflow lost-\\S+, activity \\d+, attempt 1\\) was handed to the dead worker ${dead} by the server`));
    simulation = spawnWorker('simulation', {}, undefined, 'capture');
    assert.equal((await handle.result()).status, 'passed');
  } finally {
    for (const w of [dying, survivor, simulation]) if (w) await stopWorker(w);
    await connection.close();
  }
});
