// A run is served by the build that started it (issue 25.1): workers are versioned by build in one
// worker deployment per queue prefix, with PINNED as the default behaviour. Drill in one process on
// the real dev server: build A's workers start a smoke run that waits on a durable timer; build B's
// workers start ("the deploy") and become current; a run started now goes to B, while A's run
// finishes on A's workers — every workflow task and activity of it — although B is current. Then
// A is reported draining, and drained once its run has ended. Runs and status show each run's build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { createWorkers } from '../../workers/create-workers.js';
import { currentBuild, drainage, deploymentName } from '../../workers/versioning.js';
import { BUILD_ID_ENV } from '../../lib/temporal/build-id.js';
import { runBuild, servedByBuilds } from '../../lib/temporal/run-build.js';
import { upgradeRun } from '../../lib/temporal/upgrade-run.js';
import { startSmoke } from '../../cli/runs/smoke-run.js';
import { repoRoot } from '../../lib/paths.js';
import type { SmokeResult } from '../../workflows/smoke.js';
import { waitFor } from '../helpers/poll.js';

const until = (what: string, cond: () => Promise<boolean>, timeoutMs: number) => waitFor(what, async () => ((await cond()) ? true : undefined), timeoutMs, 300);

const TASK = path.join(repoRoot, 'data/tasks/smoke/task_smoke_heisenberg_dimer.json');
const stamp = Date.now().toString(36);
const A = `test-a-${stamp}`;
const B = `test-b-${stamp}`;

async function workersOf(build: string, wconn: NativeConnection): Promise<Worker[]> {
  process.env[BUILD_ID_ENV] = build;
  return createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle(), identity: `worker@${build}` });
}

/** The identity of the worker that started the run's last activity. */
async function lastActivityServer(client: Client, handle: WorkflowHandle): Promise<string | undefined> {
  const events = (await client.workflow.getHandle(handle.workflowId).fetchHistory()).events ?? [];
  return events.map((e) => e.activityTaskStartedEventAttributes?.identity).filter(Boolean).pop() ?? undefined;
}

/** The identities of the workers that started each workflow and activity task of a run. */
async function servedBy(client: Client, handle: WorkflowHandle): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const e of (await client.workflow.getHandle(handle.workflowId).fetchHistory()).events ?? []) {
    const identity = e.workflowTaskStartedEventAttributes?.identity ?? e.activityTaskStartedEventAttributes?.identity;
    if (identity) ids.add(identity);
  }
  return ids;
}

test('a run started by build A finishes on A after build B is deployed; new runs go to B; an upgraded run moves to B', { timeout: 300_000 }, async () => {
  const address = await ensureServer();
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const before = process.env[BUILD_ID_ENV];
  const running: Promise<void>[] = [];
  const all: Worker[] = [];
  try {
    const a = await workersOf(A, wconn);
    all.push(...a);
    running.push(...a.map((w) => w.run()));
    await until(`build ${A} current`, async () => (await currentBuild(connection, 'default')) === A, 60_000);

    const first = await startSmoke(client, TASK, { waitSeconds: 12 });
    // Its first workflow task ran on A (the run is now pinned to A).
    await until('first run pinned to A', async () => runBuild((await first.handle.describe()).searchAttributes) === A, 30_000);

    const third = await startSmoke(client, TASK, { waitSeconds: 15 });
    await until('third run pinned to A', async () => runBuild((await third.handle.describe()).searchAttributes) === A, 30_000);

    const b = await workersOf(B, wconn);
    all.push(...b);
    running.push(...b.map((w) => w.run()));
    await until(`build ${B} current after the deploy`, async () => (await currentBuild(connection, 'default')) === B, 60_000);

    const second = await startSmoke(client, TASK);
    // An explicit upgrade (issue 25.2): the third run, started on A, is moved to B and finishes on B.
    assert.deepEqual(await upgradeRun(connection, 'default', third.workflowId, B), { workflowId: third.workflowId, from: A, to: B });
    await assert.rejects(upgradeRun(connection, 'default', third.workflowId, 'no-such-build'), /has no workers/);
    const [r1, r2, r3] = (await Promise.all([first.handle.result(), second.handle.result(), third.handle.result()])) as [SmokeResult, SmokeResult, SmokeResult];
    assert.equal(r1.status, 'passed');
    assert.equal(r2.status, 'passed');
    assert.equal(r3.status, 'passed', 'the upgraded run replays on B and finishes');
    const third3 = await servedBy(client, third.handle);
    assert.ok(third3.has(`worker@${B}`), `the upgraded run was served by B after the move: ${[...third3].join(', ')}`);
    assert.equal(await lastActivityServer(client, third.handle), `worker@${B}`, 'its sandbox run (after the timer) ran on B');

    assert.deepEqual([...(await servedBy(client, first.handle))], [`worker@${A}`], 'every task of the first run was served by build A');
    assert.deepEqual([...(await servedBy(client, second.handle))], [`worker@${B}`], 'every task of the second run was served by build B');
    assert.equal(runBuild((await first.handle.describe()).searchAttributes), A);
    assert.equal(runBuild((await second.handle.describe()).searchAttributes), B);
    await until('the server records A as the only build that served run 1', async () => servedByBuilds((await first.handle.describe()).searchAttributes).join() === A, 30_000);

    // Visibility lists the build too (what `physvec runs` shows).
    await until('the listed run shows build B', async () => {
      for await (const w of client.workflow.list({ query: `WorkflowId = "${second.workflowId}"` })) return runBuild(w.searchAttributes) === B;
      return false;
    }, 30_000);

    // A has no open run left: the server reports it drained (the dev server refreshes every 5 s).
    process.env[BUILD_ID_ENV] = A;
    await until(`build ${A} drained`, async () => (await drainage(wconn, 'default')) === 'drained', 90_000);
    console.log(`# deployment ${deploymentName()}: run 1 on ${A} only, run 2 on ${B} only; ${A} drained`);
  } finally {
    for (const w of all) w.shutdown();
    await Promise.allSettled(running);
    if (before === undefined) delete process.env[BUILD_ID_ENV];
    else process.env[BUILD_ID_ENV] = before;
    await connection.close();
    await wconn.close();
  }
});
