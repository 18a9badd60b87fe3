// Resume and retry the way eval tools do, through the real CLI: a campaign started with nobody to run
// it is reattached to by `bench run --id` (which then runs the workers itself), `bench run --id` of a
// complete campaign runs nothing, `bench retry` reruns exactly the errored run, a different spec under
// the same id is refused, and `physvec runs` lists the campaign's reproduction.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openResultsDb } from '../../lib/results/db.js';
import { campaignRuns } from '../../lib/results/store.js';
import { testClient } from '../helpers/temporal.js';
import { runCli } from './run-cli.js';

test('bench run --id reattaches and resumes, bench retry reruns only the errored run, runs lists it', { timeout: 15 * 60_000 }, async (t) => {
  const { connection } = await testClient();
  t.after(() => connection.close());
  const dir = await mkdtemp(path.join(os.tmpdir(), 'physvec-bench-resume-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const env = { PHYSVEC_STATE_DIR: dir, PHYSVEC_LOG_LEVEL: 'ERROR' };
  const id = `resume-${randomUUID().slice(0, 8)}`;
  const json = async (args: string[], code = 0) => {
    const r = await runCli(args, env, 10 * 60_000);
    assert.equal(r.code, code, `${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
    return JSON.parse(r.stdout);
  };

  // Started with nobody to run it; then reattached to, and run to its end by the reattaching process.
  const started = await json(['bench', 'run', '--tasks', 'dimer_pipeline', '--trials', '1', '--id', id, '--workers', 'external', '--no-wait', '--json']);
  assert.equal(started.campaignId, id);
  const attached = await json(['bench', 'run', '--id', id, '--json']);
  assert.deepEqual([attached.campaignId, attached.planned, attached.counts.done], [id, 1, 1]);

  // Complete: nothing runs again.
  assert.deepEqual(await json(['bench', 'run', '--id', id, '--json']), { campaignId: id, planned: 1, recorded: 1, resumed: false, ui: attached.ui });

  // A different plan under the same id is refused before anything starts.
  const clash = await runCli(['bench', 'run', '--id', id, '--tasks', 'trotter'], env);
  assert.equal(clash.code, 2);
  assert.match(clash.stderr, new RegExp(`--id ${id}: campaign ${id} exists with another selection`));

  // Retry: only the errored run runs again, and is recorded again.
  const file = path.join(dir, 'results.sqlite');
  const db = openResultsDb(file);
  const [run] = campaignRuns(db, id);
  assert.ok(run, 'the campaign recorded its run');
  db.prepare("UPDATE runs SET outcome = 'error', recorded_at = '2000-01-01T00:00:00.000Z' WHERE campaign_id = ? AND key = ?").run(id, run.key);
  db.close();
  const retried = await json(['bench', 'retry', id, '--json']);
  assert.deepEqual([retried.campaignId, retried.counts.done], [id, 1]);
  const after = campaignRuns(openResultsDb(file), id);
  openResultsDb(file).close();
  assert.deepEqual(after.map((r) => [r.key, r.outcome]), [[run.key, 'done']]);
  assert.notEqual(after[0]!.recordedAt, '2000-01-01T00:00:00.000Z', 'the run was recorded again');
  assert.deepEqual(await json(['bench', 'retry', id, '--json']), { campaignId: id, retried: [], ui: attached.ui });

  // The campaign's reproduction is in `physvec runs`.
  const listed = await json(['runs', '--task', 'task_smoke_dimer_pipeline', '--json', '--limit', '200']);
  assert.ok(listed.runs.some((r: { workflowId: string; verdict: string }) => r.workflowId === run.workflowId), `runs lists ${run.workflowId}`);
});
