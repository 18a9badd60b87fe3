// Worker housekeeping without a server: the outage and "No workflows registered" warnings condensed
// to one line each, the re-run journal, the activity summaries, and the timeouts that bound the
// recovery from a killed worker for every activity kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkerLogger } from '../../workers/logger.js';
import { RerunJournal, rerunJournalInterceptor } from '../../workers/rerun-journal.js';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { drillDelays } from '../../workers/drill-delay.js';
import { jobSummary } from '../../workflows/shared/activities.js';
import { jobId, type JobPurpose } from '../../schemas/job-purpose.js';
import { LIGHT_ACTIVITY, LLM_ACTIVITY, PREPARE_ACTIVITY, SANDBOX_ACTIVITY } from '../../temporal-config/timeouts.js';
import { SEARCH_ATTRIBUTE_FLAGS, RETIRED_SEARCH_ATTRIBUTES } from '../../temporal-config/search-attributes.js';

const retryWarning = (n: number) => [
  `gRPC call poll_activity_task_queue retried ${n} times`,
  { sdkComponent: 'core', error: 'Status { code: Unavailable, message: "tcp connect error", source: Some(tonic::transport::Error(Transport, ConnectError(ConnectError("tcp connect error", 127.0.0.1:7233, Os { code: 111, kind: ConnectionRefused, message: "Connection refused" })))) }' },
] as const;

test('a server outage prints one line, however many retry warnings core logs; a later outage prints one more', () => {
  const lines: string[] = [];
  let now = 0;
  const log = new WorkerLogger('WARN', (l) => lines.push(l), () => now);
  for (let i = 0; i < 40; i++) {
    now += 2000;
    log.warn(...retryWarning(6 + i));
  }
  log.warn('Network error while describing namespace for heartbeat capabilities', retryWarning(6)[1]);
  // A running activity's heartbeat fails too: core puts the multi-line error in the message itself.
  log.warn(`Error when recording heartbeat: ${retryWarning(6)[1].error}`, { sdkComponent: 'core', target: 'temporalio_sdk_core::worker::activities::activity_heartbeat_manager' });
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /cannot reach the Temporal server at 127\.0\.0\.1:7233 \(Connection refused; poll_activity_task_queue\)/);
  now += 120_000; // the server answered for two minutes, then went away again
  log.warn(...retryWarning(6));
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /41 retry warnings were condensed/);
  now += 120_000; // an outage first noticed by a heartbeat names it
  log.warn(`Error when recording heartbeat: ${retryWarning(6)[1].error}`, { sdkComponent: 'core' });
  assert.match(lines.splice(2, 1)[0]!, /cannot reach the Temporal server at 127\.0\.0\.1:7233 \(Connection refused; error when recording heartbeat\)/);
  log.warn('No workflows registered, not polling for workflow tasks', { taskQueue: 'physvec-simulation' });
  assert.equal(lines.length, 3);
  assert.match(lines[2]!, /^physvec worker: queue physvec-simulation runs activities only/);
  const quiet: string[] = [];
  new WorkerLogger('ERROR', (l) => quiet.push(l)).warn(...retryWarning(6));
  assert.deepEqual(quiet, [], 'nothing below the configured level');
});

test('an attempt of an activity that already completed on this host is logged and counted as a re-run', () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-journal-')), 'completions.jsonl');
  const logged: string[] = [];
  const j = new RerunJournal(file, (l) => logged.push(l));
  assert.equal(j.starting('wf/run/7', 1, 'runJob'), false);
  j.completed('wf/run/7', 1);
  // A new worker process on the same host (the journal is a file): the result of attempt 1 never arrived.
  const again = new RerunJournal(file, (l) => logged.push(l));
  assert.equal(again.starting('wf/run/7', 2, 'runJob'), true);
  assert.equal(again.reruns, 1);
  assert.match(logged[0]!, /re-running runJob wf\/run\/7 \(attempt 2\): attempt 1 finished at .* but its result never reached the Temporal server/);
  assert.equal(again.starting('wf/run/8', 2, 'runJob'), false, 'an attempt whose predecessor never completed here is no re-run');
});

test('a finished sandbox run or LLM answer is stored before it is reported, and a later attempt returns it instead of running', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-journal-'));
  const store = new ArtifactStore(path.join(dir, 'artifacts'));
  const file = path.join(dir, 'completions.jsonl');
  const logged: string[] = [];
  const info = (activityType: string, attempt: number, activityId = '5') => ({ activityType, attempt, activityId, workflowExecution: { workflowId: 'wf', runId: 'run' } });
  const execute = (journal: RerunJournal, i: ReturnType<typeof info>, run: () => Promise<unknown>) =>
    rerunJournalInterceptor(journal, store)({ info: i } as never).inbound!.execute!({ args: [], headers: {} }, run);
  let runs = 0;
  const work = async () => ({ exitCode: 0, run: ++runs });

  assert.deepEqual(await execute(new RerunJournal(file, (l) => logged.push(l)), info('runScript', 1), work), { exitCode: 0, run: 1 });
  // The server never got it; a new worker process on this host gets attempt 2 of the same execution.
  const after = new RerunJournal(file, (l) => logged.push(l));
  assert.deepEqual(await execute(after, info('runScript', 2), work), { exitCode: 0, run: 1 });
  assert.equal(runs, 1, 'not re-run');
  assert.equal(after.reused, 1);
  assert.match(logged.at(-1)!, /runScript wf\/run\/5 \(attempt 2\) returned the result of attempt 1 stored at .* not re-run/);
  assert.match(readFileSync(file, 'utf8'), /"returned":1/);

  // A failed attempt stores nothing: the next one runs.
  await assert.rejects(execute(after, info('callLlm', 1, '6'), () => Promise.reject(new Error('503'))));
  assert.deepEqual(await execute(after, info('callLlm', 2, '6'), work), { exitCode: 0, run: 2 });
  // A light step is not kept: a later attempt runs again (and is counted as a re-run).
  await execute(after, info('writeReport', 1, '7'), work);
  assert.deepEqual(await execute(after, info('writeReport', 2, '7'), work), { exitCode: 0, run: 4 });
  assert.equal(after.reruns, 1);
  // A stored file that is gone (a host crash before it reached the disk): run again, never fail.
  const again = new RerunJournal(file, (l) => logged.push(l));
  rmSync(store.root, { recursive: true });
  assert.deepEqual(await execute(again, info('runScript', 3), work), { exitCode: 0, run: 5 });
});

test('every activity kind heartbeats with a timeout that bounds the recovery from a lost host; sandbox attempts are not capped', () => {
  // A killed worker is noticed by a live worker of its host in seconds (tests/platform/dead-worker-watchdog.test.ts);
  // the heartbeat timeout bounds the rest: a minute at most, and not below 60 s, which load 85 on 2 cores could fake.
  const seconds = (d: unknown) => Number(/^(\d+)s$/.exec(String(d))?.[1] ?? NaN);
  for (const [name, o] of Object.entries({ LIGHT_ACTIVITY, LLM_ACTIVITY, SANDBOX_ACTIVITY, PREPARE_ACTIVITY })) {
    assert.equal(seconds(o.heartbeatTimeout), 60, `${name}: heartbeatTimeout ${String(o.heartbeatTimeout)}`);
    assert.equal(o.scheduleToStartTimeout, undefined, `${name}: no scheduleToStart (the server does not retry it)`);
  }
  assert.equal(SANDBOX_ACTIVITY.retry?.maximumAttempts, Number.POSITIVE_INFINITY);
  assert.deepEqual([...drillDelays('judgeProgramming=800, writeReport=5')], [['judgeProgramming', 800], ['writeReport', 5]]);
  assert.throws(() => drillDelays('judgeProgramming'), /PHYSVEC_DRILL_DELAY: "judgeProgramming" is not <activityType>=<milliseconds>/);
});

test('sandbox jobs are summarised by what they test; Verdict replaces the retired Status attribute', () => {
  const ref = { sha256: 'a'.repeat(64), bytes: 1 };
  const job = (purpose: JobPurpose, file: string) => ({ id: jobId(purpose), purpose, file, ref });
  assert.equal(jobSummary(job({ kind: 'unit', function: 'observable_spin_densities' }, 'u.py')), 'unit test observable_spin_densities');
  assert.equal(jobSummary(job({ kind: 'level', runFunction: 'run_energy', level: 2, totalLevels: 4, introduces: ['a', 'b'] }, 'l.py')), 'integration run_energy level 2/4');
  assert.equal(jobSummary(job({ kind: 'full' }, 'main.py')), 'full script run');
  assert.equal(jobSummary(job({ kind: 'assertion', case: 'limiting:2' }, 'v.py')), 'assertion limiting:2');
  assert.equal(jobSummary(job({ kind: 'convergence', case: 'convergence:0', value: 16 }, 'c.py')), 'convergence convergence:0 at 16');
  assert.equal(jobId({ kind: 'level', runFunction: 'run_energy', level: 2, totalLevels: 4, introduces: ['a', 'b'] }), 'level:run_energy:2:4:a+b');
  // A job recorded before jobs carried a purpose (old histories replay through this) is named by its id.
  assert.equal(jobSummary({ id: 'full', file: 'main.py', ref } as never), 'full');
  assert.ok(SEARCH_ATTRIBUTE_FLAGS.includes('Verdict=Keyword'));
  assert.ok(!SEARCH_ATTRIBUTE_FLAGS.some((f) => f.startsWith('Status=')));
  assert.deepEqual(RETIRED_SEARCH_ATTRIBUTES, ['Status']);
});
