// Issue 24.3: a killed worker is noticed by a live worker of its host within seconds, not after a
// heartbeat timeout — so the timeout can be long enough (60 s) that a starved host cannot fake a
// death. The attempt the dead worker held is failed on the server as WorkerGone (naming the dead
// worker and who noticed), keeps its last heartbeat details (a retry restores the run's checkpoint
// from them), and is retried; a worker started after the host lost every worker does this before it
// polls. The retry's task priority is raised and it is moved to the recovery queue, so it goes
// before runs queued earlier and starts even beside a busy worker's own run (issue 24.4: recovery at
// load 40 waited 45–58 s behind the stage's other runs); per pass a mover keeps as many retries on
// the regular queue as it has free slots there and moves one (workers/sandbox-slots.ts). Real dev server, real `physvec worker`
// processes, kill -9.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { AttemptRegistry, ATTEMPTS_DIR_ENV, FINISHED_SUFFIX } from '../../workers/attempt-registry.js';
import { startTicks } from '../../lib/process-identity.js';
import { waitFor } from '../helpers/poll.js';
import { pendingRun, SCHEDULED, STARTED } from '../helpers/pending-run.js';
import { deadHolders, DeadWorkerWatchdog, WORKER_GONE } from '../../workers/dead-worker-watchdog.js';
import { RETRY_PRIORITY_KEY, retryPriorityKey } from '../../workers/retry-priority.js';
import { retryRankOf } from '../../workers/retry-order.js';
import { recoveryQueueOf } from '../../temporal-config/queues.js';

// This file's workers and watchdogs see only each other's attempts (the suite runs other workers on the same server).
process.env[ATTEMPTS_DIR_ENV] = mkdtempSync(path.join(os.tmpdir(), 'physvec-attempts-test-'));
process.env.PHYSVEC_QUEUE_PREFIX = `wd-${randomUUID().slice(0, 8)}`;
const { taskQueues } = await import('../../lib/temporal/task-queues.js');
const { spawnWorker, stopWorker } = await import('../pipeline/drill-support.js');
type SpawnedWorker = ReturnType<typeof spawnWorker>;
// One sandbox slot each: which run a new worker takes first is then exactly which the queue dispatched first.
const startWorker = () => spawnWorker('all', { PHYSVEC_SIM_SLOTS: '1' }, undefined, 'capture');

test('a holder is dead when its pid ended or now belongs to a process started at another time; live holders and this process are not', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'physvec-holders-'));
  const live = spawn('sleep', ['30']);
  const ended = spawn('true');
  await new Promise((r) => ended.once('exit', r));
  try {
    const start = startTicks(live.pid!)!;
    assert.match(start, /^\d+$/);
    for (const d of [`${live.pid}.${start}`, `${live.pid}.${Number(start) + 1}`, `${ended.pid}.${start}`, `${process.pid}.0`]) mkdirSync(path.join(root, d));
    assert.deepEqual(deadHolders(root).sort(), [`${live.pid}.${Number(start) + 1}`, `${ended.pid}.${start}`].sort());
    // A registry names its own dir after this process and its start time, so it is never judged dead by itself.
    assert.equal(path.basename(new AttemptRegistry(root).dir), `${process.pid}.${startTicks(process.pid)}`);
  } finally {
    live.kill('SIGKILL');
  }
});

/** A task token as the server encodes it (field 1: namespace id, field 2: workflow id), here of a namespace id this server never had. */
function tokenOfUnknownNamespace(workflowId: string): string {
  const field = (n: number, v: string) => Buffer.concat([Buffer.from([(n << 3) | 2, Buffer.byteLength(v)]), Buffer.from(v)]);
  return Buffer.concat([field(1, randomUUID()), field(2, workflowId), Buffer.from([0x20, 0x01])]).toString('base64');
}

function deadHolderWith(root: string, held: Record<string, unknown>): string {
  // A pid above any pid_max: no process has it, so its holder is dead.
  const dir = path.join(root, '4194999.1');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'a.json');
  writeFileSync(file, JSON.stringify({ activityId: '1', activityType: 'runScript', attempt: 1, holder: '4194999@vm', startedAt: Date.now(), ...held }));
  return file;
}

// Seen in CI: both test tiers start their dev server at the same address; the default tier's killed
// workers left records whose task tokens name the first server's namespace id, and every worker of the
// drill tier failed them again each second (361 refused failures a second, the server at half a core).
test('a dead worker\'s attempt that the server refuses (a token of a server that was at this address before) is forgotten after one try; one the server cannot be asked about is kept', { timeout: 120_000 }, async () => {
  await ensureServer();
  const address = process.env.TEMPORAL_ADDRESS!;
  const root = mkdtempSync(path.join(os.tmpdir(), 'physvec-refused-'));
  const stale = deadHolderWith(root, { taskToken: tokenOfUnknownNamespace('gone-1'), address, namespace: 'default', workflowId: 'gone-1' });
  const lines: string[] = [];
  const watchdog = new DeadWorkerWatchdog({ address, namespace: 'default', connectionOptions: { address } }, (l) => lines.push(l), root);
  try {
    await watchdog.pass();
    assert.equal(existsSync(stale), false, 'the refused attempt is forgotten after one pass');
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, /forgot 1 attempt\(s\) of dead workers that the server at \S+ refused \(1 (NamespaceNotFoundError|ActivityCompletionError); e\.g\. /);
    assert.deepEqual(readdirSync(root), [], 'the dead holder\'s dir goes with its last attempt');
  } finally {
    await watchdog.stop();
  }
  // No server answers at this address: the attempt stays for the next pass.
  const silent = '127.0.0.1:9';
  const otherRoot = mkdtempSync(path.join(os.tmpdir(), 'physvec-unanswered-'));
  const kept = deadHolderWith(otherRoot, { taskToken: tokenOfUnknownNamespace('gone-2'), address: silent, namespace: 'default', workflowId: 'gone-2' });
  const unanswered = new DeadWorkerWatchdog({ address: silent, namespace: 'default', connectionOptions: { address: silent, connectTimeout: 1_000 } }, (l) => lines.push(l), otherRoot);
  try {
    await unanswered.pass();
    assert.equal(existsSync(kept), true, 'an attempt the server could not be asked about is kept');
  } finally {
    await unanswered.stop();
  }
});

// Issue 24.4: at load 40 a restarted 3-slot worker took a kill's five retries in the order their files
// were read, and the full run came fifth (80.5 s to its restart). Whole-script runs are failed (and so
// queued) first, at a higher priority than unit harnesses and levels; then the most interrupted.
test('a dead worker\'s attempts are failed whole-script runs first, then integration levels, then unit harnesses; the more interrupted first among equals', { timeout: 120_000 }, async () => {
  await ensureServer();
  const address = process.env.TEMPORAL_ADDRESS!;
  const root = mkdtempSync(path.join(os.tmpdir(), 'physvec-order-'));
  const held = (holderDir: string, name: string, rank: number | undefined, attempt: number, startedAt: number) => {
    mkdirSync(path.join(root, holderDir), { recursive: true });
    writeFileSync(path.join(root, holderDir, `${name}.json`), JSON.stringify({ taskToken: tokenOfUnknownNamespace(name), address, namespace: 'default', workflowId: name, activityId: '1', activityType: 'runJob', attempt, holder: '4194999@vm', startedAt, recoveryQueue: name, ...(rank === undefined ? {} : { rank }) }));
  };
  const t = Date.now();
  // Two dead holders (pids above any pid_max); file names in no useful order.
  held('4194999.1', 'a-unit', 0, 1, t - 60_000);
  held('4194999.1', 'b-full', 2, 1, t);
  held('4194998.1', 'c-level', 1, 1, t - 30_000);
  held('4194998.1', 'd-unit-again', 0, 3, t);
  held('4194998.1', 'e-assertion-longer', 2, 1, t - 5_000);
  held('4194999.1', 'f-unknown', undefined, 1, t - 1_000);
  const order: (string | undefined)[] = [];
  const watchdog = new DeadWorkerWatchdog({ address, namespace: 'default', connectionOptions: { address } }, () => undefined, root, undefined, () => (q) => (order.push(q), undefined));
  try {
    await watchdog.pass();
  } finally {
    await watchdog.stop();
  }
  assert.deepEqual(order, ['e-assertion-longer', 'f-unknown', 'b-full', 'c-level', 'd-unit-again', 'a-unit']);
  assert.deepEqual(readdirSync(root), [], 'every attempt was tried (refused: tokens of another server) and the holders\' dirs are gone');
  assert.equal(retryPriorityKey(2), RETRY_PRIORITY_KEY);
  assert.equal(retryPriorityKey(undefined), RETRY_PRIORITY_KEY);
  assert.ok(retryPriorityKey(0) > RETRY_PRIORITY_KEY && retryPriorityKey(1) === retryPriorityKey(0) && retryPriorityKey(0) < 3, 'short runs\' retries go after whole-script runs\' but before the default key 3 of new runs');
});

test('an attempt\'s rank comes from its job\'s purpose', () => {
  const job = (purpose: Record<string, unknown>) => [{ job: { id: 'x', purpose, file: 'main.py', ref: 'r' }, language: 'python', timeoutMs: 1000 }];
  assert.equal(retryRankOf(job({ kind: 'full' })), 2);
  assert.equal(retryRankOf(job({ kind: 'assertion', case: 'limiting:0' })), 2);
  assert.equal(retryRankOf(job({ kind: 'convergence', case: 'c0', value: 64 })), 2);
  assert.equal(retryRankOf(job({ kind: 'level', runFunction: 'run_x', level: 1, totalLevels: 2, introduces: ['f'] })), 1);
  assert.equal(retryRankOf(job({ kind: 'unit', function: 'f' })), 0);
  assert.equal(retryRankOf([{ request: { label: 'full' } }]), undefined, 'runScript\'s input names no purpose');
  assert.equal(retryRankOf([]), undefined);
});

const sleepScript = (s: number) => `import time\nfor i in range(${s}):\n    print(i, flush=True)\n    time.sleep(1)\nprint("done")\n`;

function startSleeper(client: Client, seconds: number): Promise<WorkflowHandle> {
  return client.workflow.start('smokeReproduction', {
    workflowId: `watchdog-${randomUUID().slice(0, 8)}`,
    taskQueue: taskQueues().orchestration,
    args: [{ taskId: 'watchdog', topic: 'drill', request: { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: sleepScript(seconds) }], timeoutMs: 600_000, label: 'full' } }],
  });
}

/** The run's attempt `n` started on `w` and has heartbeated (its details name the run). */
const runningOn = (handle: WorkflowHandle, w: SpawnedWorker, n: number) =>
  waitFor(`attempt ${n} running on ${w.proc.pid}`, async () => {
    const p = await pendingRun(handle);
    return p && p.attempt === n && p.state === STARTED && p.worker.startsWith(`${w.proc.pid}@`) && p.details.includes('"phase":"running"') ? p : undefined;
  }, 300_000, 100);

test('a worker killed -9 is noticed by a live worker of its host in seconds; a worker started after the host lost all its workers does it before polling', { timeout: 900_000 }, async () => {
  await ensureServer();
  const { client, connection } = await testClient();
  const workers: SpawnedWorker[] = [];
  const watchdogLines: string[] = [];
  const watchdog = new DeadWorkerWatchdog({ address: process.env.TEMPORAL_ADDRESS!, namespace: 'default', connectionOptions: { address: process.env.TEMPORAL_ADDRESS! } }, (l) => watchdogLines.push(l));
  try {
    // 1. A live watchdog of the host (here: this process; no simulation worker polls meanwhile, so the retry waits, scheduled).
    const a = startWorker();
    workers.push(a);
    const first = await startSleeper(client, 40);
    const beforeKill = await runningOn(first, a, 1);
    // Runs queued before the kill (a's one slot is busy): they wait for the next worker, ahead of the retry in time.
    const queued = await Promise.all([0, 1, 2].map(() => startSleeper(client, 15)));
    await waitFor('the queued runs scheduled', async () => ((await Promise.all(queued.map((q) => pendingRun(q)))).every((p) => p) ? true : undefined), 60_000, 100);
    await watchdog.start();
    const killedAt = Date.now();
    await stopWorker(a);
    const failed = await waitFor('the killed attempt failed as WorkerGone', async () => {
      const p = await pendingRun(first);
      return p && p.attempt === 2 ? p : undefined;
    }, 30_000, 100);
    const noticedS = (Date.now() - killedAt) / 1000;
    assert.equal(failed.failureType, WORKER_GONE, `the attempt ended by: ${failed.failure}`);
    assert.match(failed.failure, new RegExp(`worker ${a.proc.pid}@\\S+ running this attempt is gone .* noticed by worker ${process.pid}@`));
    assert.ok(noticedS < 10, `noticed ${noticedS.toFixed(1)} s after the kill (heartbeat timeout 60 s)`);
    assert.equal(failed.state, SCHEDULED);
    assert.equal(failed.priorityKey, RETRY_PRIORITY_KEY, 'the retry goes before the queued runs');
    assert.equal(failed.taskQueue, recoveryQueueOf(taskQueues().simulation), 'the retry is moved to the recovery queue its worker served');
    // The retry gets the dead attempt's last heartbeat details (its run id, output counts, checkpoint manifest).
    const runId = (s: string) => /"runId":"([^"]+)"/.exec(s)?.[1];
    assert.ok(runId(beforeKill.details));
    assert.equal(runId(failed.details), runId(beforeKill.details), 'the last heartbeat details survive the failure');
    // The line follows the server's answer to the failure, which may come after the test's describe saw attempt 2.
    await waitFor('the watchdog\'s line', async () => watchdogLines.length || undefined, 10_000, 50).catch(() => undefined);
    assert.equal(watchdogLines.length, 1, watchdogLines.join('\n'));
    assert.match(watchdogLines[0]!, /runScript \(workflow watchdog-\S+, activity \d+, attempt 1\) was held by worker \d+@\S+, which is gone/);
    await watchdog.stop();

    // 2. No live worker on the host: the next worker to start fails what the dead one held before it polls.
    //    It also starts the retry of (1) before the runs queued earlier: the watchdog sent it ahead.
    const b = startWorker();
    workers.push(b);
    await waitFor('the retry of the killed run started', async () => ((await pendingRun(first))?.state === STARTED ? true : undefined), 120_000, 100);
    const servedFirst = (await Promise.all(queued.map(async (q) => (await q.describe()).status.name !== 'RUNNING'))).filter(Boolean).length;
    assert.equal(servedFirst, 0, `the retry waited until ${servedFirst} of the runs queued before it had run`);
    assert.equal((await first.result()).status, 'passed');
    for (const q of queued) assert.equal((await q.result()).status, 'passed');
    const second = await startSleeper(client, 40);
    await runningOn(second, b, 1);
    await stopWorker(b);
    const c = startWorker();
    workers.push(c);
    const retried = await waitFor('the second run retried', async () => {
      const p = await pendingRun(second);
      return p && p.attempt === 2 ? p : undefined;
    }, 120_000, 100);
    assert.equal(retried.failureType, WORKER_GONE, retried.failure);
    assert.match(retried.failure, new RegExp(`worker ${b.proc.pid}@\\S+ running this attempt is gone .* noticed by worker ${c.proc.pid}@`));
    assert.equal((await second.result()).status, 'passed');
    assert.match(c.out(), /was held by worker \d+@\S+, which is gone: failed it on the server/);
  } finally {
    await watchdog.stop();
    for (const w of workers) await stopWorker(w);
    await connection.close();
  }
});

test('a killed run\'s retry starts at once in the recovery slot of a live worker whose sandbox slot is busy', { timeout: 600_000 }, async () => {
  await ensureServer();
  const { client, connection } = await testClient();
  const workers: SpawnedWorker[] = [];
  try {
    const x = startWorker();
    workers.push(x);
    await x.ready;
    const killed = await startSleeper(client, 40);
    await runningOn(killed, x, 1);
    const y = startWorker();
    workers.push(y);
    const busy = await startSleeper(client, 40);
    await runningOn(busy, y, 1);
    const killedAt = Date.now();
    await stopWorker(x);
    // y's watchdog fails x's attempt and moves its retry to the recovery queue, where y keeps a slot.
    const retried = await waitFor('the retry running on the busy worker', async () => {
      const p = await pendingRun(killed);
      return p && p.attempt === 2 && p.state === STARTED && p.worker.startsWith(`${y.proc.pid}@`) ? p : undefined;
    }, 30_000, 100).catch(async () => assert.fail(`no retry on ${y.proc.pid} within 30 s of the kill: ${JSON.stringify(await pendingRun(killed))}`));
    const afterS = (Date.now() - killedAt) / 1000;
    const other = await pendingRun(busy);
    assert.ok(other?.state === STARTED && other.worker.startsWith(`${y.proc.pid}@`), `y's sandbox slot still runs the other run (${JSON.stringify(other)})`);
    assert.equal(retried.failureType, WORKER_GONE);
    assert.equal(retried.taskQueue, recoveryQueueOf(taskQueues().simulation));
    console.log(`# the retry started ${afterS.toFixed(1)} s after the kill, beside the busy worker's own run`);
    assert.equal((await killed.result()).status, 'passed');
    assert.equal((await busy.result()).status, 'passed');
  } finally {
    for (const w of workers) await stopWorker(w);
    await connection.close();
  }
});

test('a worker restarted after its host lost a worker holding three runs starts all three retries at once, though a process without sandbox slots failed them first', { timeout: 600_000 }, async () => {
  await ensureServer();
  const { client, connection } = await testClient();
  const workers: SpawnedWorker[] = [];
  // This process stands for the host's orchestration worker: alive, no sandbox slots, first to notice.
  const watchdog = new DeadWorkerWatchdog({ address: process.env.TEMPORAL_ADDRESS!, namespace: 'default', connectionOptions: { address: process.env.TEMPORAL_ADDRESS! } }, () => undefined);
  try {
    const x = spawnWorker('all', { PHYSVEC_SIM_SLOTS: '3' }, undefined, 'capture');
    workers.push(x);
    await x.ready;
    const runs = await Promise.all([0, 1, 2].map(() => startSleeper(client, 40)));
    await Promise.all(runs.map((r) => runningOn(r, x, 1)));
    await watchdog.start();
    await stopWorker(x);
    const failed = await waitFor('the three attempts failed', async () => {
      const ps = await Promise.all(runs.map((r) => pendingRun(r)));
      return ps.every((p) => p && p.attempt === 2 && p.state === SCHEDULED) ? ps : undefined;
    }, 30_000, 100);
    await watchdog.stop();
    // One to the recovery queue; the others stay on the regular queue, ahead by priority (all three
    // in the one recovery slot ran one after the other: 65 s for the full run at load 44, drill-load).
    assert.deepEqual(failed.map((p) => p!.taskQueue).sort(), [taskQueues().simulation, taskQueues().simulation, recoveryQueueOf(taskQueues().simulation)].sort());
    for (const p of failed) assert.equal(p!.priorityKey, RETRY_PRIORITY_KEY);
    const y = spawnWorker('all', { PHYSVEC_SIM_SLOTS: '2' }, undefined, 'capture');
    workers.push(y);
    const startedAt = Date.now();
    await waitFor('all three retries running on y at once', async () => {
      const ps = await Promise.all(runs.map((r) => pendingRun(r)));
      return ps.every((p) => p && p.attempt === 2 && p.state === STARTED && p.worker.startsWith(`${y.proc.pid}@`)) ? ps : undefined;
    }, 60_000, 100).catch(async () => assert.fail(`not all three retries ran at once on ${y.proc.pid} within 60 s of its start: ${JSON.stringify(await Promise.all(runs.map((r) => pendingRun(r))))}`));
    console.log(`# all three retries running ${((Date.now() - startedAt) / 1000).toFixed(1)} s after the restarted worker's start`);
    // Two regular slots and the recovery slot are busy: a fourth run is not taken.
    const fourth = await startSleeper(client, 5);
    await new Promise((r) => setTimeout(r, 5_000));
    assert.notEqual((await pendingRun(fourth))?.state, STARTED, 'no fourth run beside three on a 2-slot worker');
    for (const r of runs) assert.equal((await r.result()).status, 'passed');
    assert.equal((await fourth.result()).status, 'passed');
  } finally {
    await watchdog.stop();
    for (const w of workers) await stopWorker(w);
    await connection.close();
  }
});

test('a registry that cannot write (a full or read-only disk) does not fail the attempt', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'physvec-holders-ro-'));
  writeFileSync(path.join(root, 'blocker'), '');
  // The registry dir would have to be created under a regular file: every write fails.
  const registry = new AttemptRegistry(path.join(root, 'blocker'));
  const release = registry.hold({ taskToken: 'dG9rZW4=', address: 'x', namespace: 'default', workflowId: 'w', activityId: '1', activityType: 'runScript', attempt: 1, holder: 'h', startedAt: Date.now() });
  assert.doesNotThrow(release);
});

test('a finished attempt stays on record until its result has surely reached the server, then goes', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'physvec-holders-done-'));
  const registry = new AttemptRegistry(root);
  const release = registry.hold({ taskToken: 'dG9rZW4=', address: 'x', namespace: 'default', workflowId: 'w', activityId: '1', activityType: 'runJob', attempt: 1, holder: 'h', startedAt: Date.now() });
  const files = () => readdirSync(registry.dir).sort();
  assert.equal(files().length, 1);
  assert.ok(files()[0]!.endsWith('.json') && !files()[0]!.endsWith(FINISHED_SUFFIX));
  release();
  // A watchdog that finds this process dead now still fails it (a kill before the SDK sent the result).
  assert.equal(files().length, 1);
  assert.ok(files()[0]!.endsWith(FINISHED_SUFFIX), files()[0]);
  registry.forgetFinished(Date.now() + 30_000);
  assert.equal(files().length, 1, 'kept while its result may still be on its way');
  registry.forgetFinished(Date.now() + 61_000);
  assert.deepEqual(files(), [], 'gone once the heartbeat timeout would have ended it anyway');
});
