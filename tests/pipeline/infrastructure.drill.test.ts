// Infrastructure faults never fail a reproduction, and recovery is bounded for every activity kind.
// 1. kill -9 the simulation worker 5 times during one sandbox run (the programming stage's full run)
//    and SIGTERM it 5 times during another (the final run): the reproduction passes with exactly the
//    verdicts of an uninterrupted run (before, a run had 4 attempts: 4 crashes failed it).
// 2. kill -9 the orchestration worker during an LLM call and during a light activity: the run passes,
//    the lost LLM attempt is counted ("1 attempt lost, tokens unknown") in the result and the report.
// Recovery = from the kill to the start of the activity's next attempt on the restarted worker.
// The figures are printed, not asserted (speed is for benchmarks, not timed tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { WorkflowHandle } from '@temporalio/client';
import { ensureServer, testClient } from '../helpers/temporal.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';
import { DIMER_MODEL, pendingActivities, sleepyDimerModel, spawnWorker, startRepro, stopWorker, verdictsOf, waitFor, type SpawnedWorker } from './drill-support.js';

/** Seconds the drill script's `main` sleeps: long enough to interrupt a full-script run at leisure. */
const MAIN_SLEEP_S = 12;

interface Kill {
  kind: string;
  signal: NodeJS.Signals;
  attempt: number;
  recoveryMs: number;
  workerStartMs: number;
}

/** The result; for a run that ended in error, a failure naming what its report says (stage, verdicts). */
async function resultWithReport(handle: WorkflowHandle): Promise<ReproductionResult> {
  try {
    return (await handle.result()) as ReproductionResult;
  } catch (err) {
    const jsonPath = ((err as { cause?: { details?: { report?: { jsonPath: string } }[] } }).cause?.details?.[0]?.report?.jsonPath);
    const report = jsonPath ? JSON.parse(readFileSync(jsonPath, 'utf8')) : undefined;
    throw new Error(`${handle.workflowId} ended in error: ${(err as Error).cause ? ((err as Error).cause as Error).message : (err as Error).message}\nverdicts: ${JSON.stringify(report ? verdictsOf(report) : null)}\nscientific: ${JSON.stringify(report?.scientific ?? null).slice(0, 3000)}`);
  }
}

async function stageOf(handle: WorkflowHandle): Promise<string | undefined> {
  return (await handle.describe()).searchAttributes.Stage?.[0] as string | undefined;
}

/**
 * Interrupt one activity `times` times: each time its attempt has started, signal the worker, start a
 * new one, and time until the next attempt has started. Returns the new worker and the figures.
 */
async function interrupt(
  handle: WorkflowHandle,
  kind: string,
  find: (p: Awaited<ReturnType<typeof pendingActivities>>[number]) => boolean,
  worker: SpawnedWorker,
  respawn: () => SpawnedWorker,
  signal: NodeJS.Signals,
  times: number,
  settleMs = 500,
): Promise<{ worker: SpawnedWorker; kills: Kill[] }> {
  const first = await waitFor(`${kind} to start`, async () => (await pendingActivities(handle)).find((p) => p.started && find(p)), 600_000);
  const kills: Kill[] = [];
  let attempt = first.attempt;
  for (let i = 0; i < times; i++) {
    await waitFor(`${kind} attempt ${attempt}`, async () => ((await pendingActivities(handle)).some((p) => p.activityId === first.activityId && p.started && p.attempt === attempt) ? true : undefined), 300_000);
    await new Promise((r) => setTimeout(r, settleMs));
    const t = Date.now();
    await stopWorker(worker, signal);
    worker = respawn();
    const workerStartMs = await worker.ready;
    await waitFor(`${kind} attempt ${attempt + 1}`, async () => ((await pendingActivities(handle)).some((p) => p.activityId === first.activityId && p.started && p.attempt === attempt + 1) ? true : undefined), 300_000, 100);
    kills.push({ kind, signal, attempt, recoveryMs: Date.now() - t, workerStartMs });
    attempt++;
  }
  return { worker, kills };
}

function printKills(title: string, kills: Kill[]): void {
  console.log(`# ${title}\n#   ${'activity'.padEnd(22)} ${'signal'.padEnd(8)} attempt  recovery (s)  worker start (s)`);
  for (const k of kills) console.log(`#   ${k.kind.padEnd(22)} ${k.signal.padEnd(8)} ${String(k.attempt).padStart(7)}  ${(k.recoveryMs / 1000).toFixed(1).padStart(12)}  ${(k.workerStartMs / 1000).toFixed(1).padStart(16)}`);
  const by = new Map<string, number[]>();
  for (const k of kills) by.set(`${k.kind} ${k.signal}`, [...(by.get(`${k.kind} ${k.signal}`) ?? []), k.recoveryMs / 1000]);
  for (const [k, xs] of by) console.log(`#   ${k}: recovery min ${Math.min(...xs).toFixed(1)} s, max ${Math.max(...xs).toFixed(1)} s`);
}

test('5 kill -9 and 5 SIGTERM of the simulation worker during two sandbox runs: the reproduction passes with the same verdicts', { timeout: 1_800_000 }, async () => {
  await ensureServer();
  const { client, connection } = await testClient();
  const model = sleepyDimerModel(MAIN_SLEEP_S);
  const orch = spawnWorker('orchestration');
  let sim = spawnWorker('simulation');
  try {
    await Promise.all([orch.ready, sim.ready]);
    const t0 = Date.now();
    const reference = await resultWithReport(await startRepro(client, { model }));
    const referenceMs = Date.now() - t0;
    assert.equal(reference.status, 'passed', `the uninterrupted run: ${reference.message}`);

    const t1 = Date.now();
    const handle = await startRepro(client, { model });
    const isFull = (p: { type: string; label?: string }) => p.type === 'runJob' && p.label === 'full';
    await waitFor('the programming stage', async () => ((await stageOf(handle)) === 'programming' ? true : undefined));
    const crashed = await interrupt(handle, 'sandbox (programming)', isFull, sim, () => spawnWorker('simulation'), 'SIGKILL', 5);
    sim = crashed.worker;
    await waitFor('the final stage', async () => ((await stageOf(handle)) === 'final' ? true : undefined), 600_000);
    const shut = await interrupt(handle, 'sandbox (final)', isFull, sim, () => spawnWorker('simulation'), 'SIGTERM', 5);
    sim = shut.worker;
    const result = await resultWithReport(handle);
    const drillMs = Date.now() - t1;

    assert.equal(result.status, 'passed', `${result.status}: ${result.message}`);
    const verdicts = (r: ReproductionResult) => verdictsOf(JSON.parse(readFileSync(r.report!.jsonPath, 'utf8')));
    assert.deepEqual(verdicts(result), verdicts(reference), 'the same verdicts as the uninterrupted run');
    // Each interrupted run went past the 4 attempts a sandbox run used to have.
    const history = await handle.fetchHistory();
    const attemptsOf = new Map<string, number>();
    const scheduled = new Map<number, string>();
    for (const e of history.events ?? []) {
      const s = e.activityTaskScheduledEventAttributes;
      if (s) scheduled.set(Number(e.eventId), s.activityId ?? '');
      const st = e.activityTaskStartedEventAttributes;
      if (st) {
        const id = scheduled.get(Number(st.scheduledEventId))!;
        attemptsOf.set(id, Math.max(attemptsOf.get(id) ?? 0, st.attempt ?? 0));
      }
    }
    const most = [...attemptsOf.values()].sort((a, b) => b - a);
    assert.ok(most[0]! >= 6 && most[1]! >= 6, `two runs needed 6 attempts each (got ${most.slice(0, 3).join(', ')})`);
    printKills(`sandbox drill: uninterrupted run ${(referenceMs / 1000).toFixed(0)} s, drilled run ${(drillMs / 1000).toFixed(0)} s, verdicts identical`, [...crashed.kills, ...shut.kills]);
  } finally {
    await stopWorker(sim);
    await stopWorker(orch);
    await connection.close();
  }
});

test('kill -9 of the orchestration worker during an LLM call and during a light activity: bounded recovery, the lost attempt counted', { timeout: 1_200_000 }, async () => {
  await ensureServer();
  const { client, connection } = await testClient();
  // Stretch the LLM calls and one light step so the worker can be killed in the middle of them.
  const env = { PHYSVEC_SCRIPTED_LATENCY_MS: '10000', PHYSVEC_DRILL_DELAY: 'judgeProgramming=10000' };
  let orch = spawnWorker('orchestration', env);
  const sim = spawnWorker('simulation');
  try {
    await Promise.all([orch.ready, sim.ready]);
    const handle = await startRepro(client, { model: DIMER_MODEL });
    const respawn = () => spawnWorker('orchestration', env);
    const llm = await interrupt(handle, 'LLM call', (p) => p.type === 'callLlm', orch, respawn, 'SIGKILL', 1, 1000);
    orch = llm.worker;
    const light = await interrupt(handle, 'light (judgeProgramming)', (p) => p.type === 'judgeProgramming', orch, respawn, 'SIGKILL', 1, 1000);
    orch = light.worker;
    const result = (await handle.result()) as ReproductionResult;
    assert.equal(result.status, 'passed', `${result.status}: ${result.message}`);
    assert.equal(result.tokens.lostAttempts, 1, 'the LLM attempt lost to the kill is counted');
    assert.equal(result.tokens.lostAttemptsUsageUnknown, 1, 'killed before it reported usage: tokens unknown');
    const html = readFileSync(result.report!.htmlPath, 'utf8');
    assert.match(html, /1 LLM attempt lost to worker crashes and re-issued, tokens unknown/);
    printKills('LLM / light drill (orchestration worker killed; restart includes bundling the workflows)', [...llm.kills, ...light.kills]);
  } finally {
    await stopWorker(orch);
    await stopWorker(sim);
    await connection.close();
  }
});
