// Every bad input gets one clear line and the right exit code, never a stack trace, and starts
// nothing: the real CLI, run as a user runs it, over the corpus in bad-input-corpus.ts (task files,
// rubrics, the config file, flags, cassettes, server states). Afterwards the results store and the
// dev server hold exactly what they held before. Prints the table input → exit code → first line,
// and how long `status` took on a running workflow no worker serves.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openResultsDb } from '../../lib/results/db.js';
import { upsertCampaign, upsertRun } from '../../lib/results/store.js';
import { testClient } from '../helpers/temporal.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { buildCorpus, TEZUKA, type Case } from './bad-input-corpus.js';
import { mapParallel, runCli, runInProcess, stackTraceLines, type CliRun } from './run-cli.js';

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

function juliaPresent(): boolean {
  try {
    execFileSync('julia', ['--version'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * What must not change: every workflow on this file's queues (id, run, status), every schedule that
 * starts work there, every stored row. Other test files share the server, on queues of their own.
 */
async function snapshot(client: Awaited<ReturnType<typeof testClient>>['client'], dbFile: string) {
  const queue = taskQueues().orchestration;
  const workflows: string[] = [];
  for await (const w of client.workflow.list({ query: `TaskQueue = '${queue}'` })) workflows.push(`${w.workflowId} ${w.runId} ${w.status.name}`);
  const schedules: string[] = [];
  for await (const s of client.schedule.list()) {
    const { action } = await client.schedule.getHandle(s.scheduleId).describe();
    if (action.type === 'startWorkflow' && action.taskQueue === queue) schedules.push(s.scheduleId);
  }
  const db = openResultsDb(dbFile);
  const rows = { campaigns: db.prepare('SELECT * FROM campaigns ORDER BY campaign_id').all(), runs: db.prepare('SELECT * FROM runs ORDER BY campaign_id, key').all() };
  db.close();
  return { workflows: workflows.sort(), schedules: schedules.sort(), rows };
}

function firstLine(c: Case, r: CliRun): string {
  const text = c.from === 'stdout' ? r.stdout : r.stderr;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const first = c.from === 'stdout' && c.first.source.startsWith('^error') ? lines.find((l) => l.startsWith('error:')) : lines[0];
  return (first ?? '').replace(/^physvec: /, '');
}

test('bad-input corpus: one clear line, the right exit code, no stack trace, nothing started', { timeout: 15 * 60_000 }, async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'physvec-bad-input-'));
  const stateDir = path.join(dir, 'state');
  const dbFile = path.join(stateDir, 'results.sqlite');
  const { client, connection } = await testClient();
  const unpolledWorkflow = `corpus-running-${randomUUID().slice(0, 8)}`;
  const seededCampaign = `corpus-seeded-${randomUUID().slice(0, 8)}`;
  t.after(async () => {
    await client.workflow.getHandle(unpolledWorkflow).terminate('bad-input corpus done').catch(() => {});
    await connection.close();
    await rm(dir, { recursive: true, force: true });
  });

  // A results store with one campaign in it, and a workflow that runs where no worker polls.
  const db = openResultsDb(dbFile);
  const seededSpec = { selection: { root: path.dirname(path.dirname(TEZUKA)), ids: ['dimer_pipeline'], topics: [] }, models: ['scripted:campaign/{task}.t{trial}'], frameworks: ['physvec'], trials: 1 };
  upsertCampaign(db, { campaignId: seededCampaign, workflowId: seededCampaign, scheduleId: null, label: 'corpus', spec: seededSpec, planned: 1 });
  upsertRun(db, { campaignId: seededCampaign, key: 'k1', taskId: 'task_smoke_dimer_pipeline', taskFile: 'x.json', topic: 'dmrg', model: 'scripted:x', framework: 'physvec', trial: 1, workflowId: `${seededCampaign}--k1`, outcome: 'skipped', metrics: null, recordedAt: new Date().toISOString() });
  db.close();
  await client.workflow.start('reproduction', { workflowId: unpolledWorkflow, taskQueue: `corpus-unpolled-${randomUUID()}`, args: [{}] });

  const cases = await buildCorpus({ dir, closedPort: await closedPort(), seededCampaign, unpolledWorkflow, juliaPresent: juliaPresent() });
  const before = await snapshot(client, dbFile);
  const env = { PHYSVEC_STATE_DIR: stateDir };
  // Every case in this process, one at a time; one case per group and every --json case also as its
  // own `physvec` process (exit code, process-level error handlers), two at a time.
  const t0 = Date.now();
  const runs: CliRun[] = [];
  for (const c of cases) runs.push(await runInProcess(c.args, { ...env, ...c.env }));
  const inProcessMs = Date.now() - t0;
  const spawnIdx = cases.map((c, i) => (c.json || cases.findIndex((d) => d.group === c.group) === i ? i : -1)).filter((i) => i >= 0);
  const corpusSize = cases.length;
  const groups = new Map<string, number>();
  for (const c of cases) groups.set(c.group, (groups.get(c.group) ?? 0) + 1);
  const t1 = Date.now();
  const spawned = await mapParallel(spawnIdx, 2, (i) => runCli(cases[i]!.args, { ...env, ...cases[i]!.env }));
  const spawnMs = Date.now() - t1;
  spawnIdx.forEach((i, k) => {
    cases.push({ ...cases[i]!, input: `${cases[i]!.input} (own process)` });
    runs.push(spawned[k]!);
  });

  const failures: string[] = [];
  const table: string[] = [];
  cases.forEach((c, i) => {
    const r = runs[i]!;
    const first = firstLine(c, r);
    table.push(`| ${c.group} | ${c.input.replace(/\|/g, '\\|')} | ${r.code} | ${first.replace(/\|/g, '\\|').slice(0, 220)} |`);
    const problems: string[] = [];
    if (r.code !== c.exit) problems.push(`exit ${r.code}, expected ${c.exit}`);
    if (!c.first.test(first)) problems.push(`first line does not match ${c.first}: ${JSON.stringify(first)}`);
    const traces = stackTraceLines(`${r.stdout}\n${r.stderr}`);
    if (traces.length) problems.push(`stack trace: ${traces.slice(0, 3).join(' / ')}`);
    if (c.mentions && !c.mentions.test(`${r.stdout}\n${r.stderr}`)) problems.push(`output does not mention ${c.mentions}`);
    if (c.json) {
      try {
        const doc = JSON.parse(r.stdout) as { ok: boolean; error: { message: string; exitCode: number } };
        if (doc.ok !== false || doc.error.exitCode !== c.exit || !c.first.test(doc.error.message.split('\n')[0]!)) problems.push(`JSON error document not as expected: ${r.stdout.slice(0, 300)}`);
      } catch {
        problems.push(`stdout is not one JSON document: ${JSON.stringify(r.stdout.slice(0, 300))}`);
      }
    }
    if (problems.length) failures.push(`${c.group}: ${c.input} (${c.args.join(' ')}): ${problems.join('; ')}\n    stderr: ${r.stderr.slice(0, 400)}`);
  });
  const after = await snapshot(client, dbFile);

  const statusRun = runs[cases.findIndex((c) => c.args[0] === 'status' && c.args[1] === unpolledWorkflow)]!;
  t.diagnostic(`${corpusSize} cases in process in ${(inProcessMs / 1000).toFixed(1)} s, ${spawnIdx.length} again as processes in ${(spawnMs / 1000).toFixed(1)} s; status of a running workflow with no worker: ${statusRun.ms} ms`);
  t.diagnostic(`by group: ${[...groups].map(([g, n]) => `${g} ${n}`).join(', ')}`);
  console.log(['| group | input | exit | first line |', '|---|---|---|---|', ...table].join('\n'));

  assert.ok(corpusSize >= 60, `the corpus has ${corpusSize} cases, fewer than 60`);
  assert.deepEqual(failures, []);
  assert.ok(statusRun.ms < 5000, `status took ${statusRun.ms} ms with no worker`);
  assert.deepEqual(after.rows, before.rows, 'the results store changed');
  assert.deepEqual(after.schedules, before.schedules, 'a schedule was created or deleted');
  assert.deepEqual(after.workflows, before.workflows, 'a workflow was started, or one changed state');
});
