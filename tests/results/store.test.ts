// The results store: migrations, idempotent upserts, the previous-campaign lookup, and
// `physvec results export|list` (in process through commander, and once as the real CLI for exit 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { Command } from 'commander';
import { MIGRATIONS } from '../../lib/results/migrations.js';
import { migrate, openResultsDb, resultsDbPath } from '../../lib/results/db.js';
import {
  campaignRuns, closeCampaign, getCampaign, listCampaigns, previousCampaign, recordedKeys, upsertCampaign, upsertRun,
} from '../../lib/results/store.js';
import { runsToCsv } from '../../lib/results/export.js';
import { register } from '../../cli/commands/results.js';
import { BadInputError } from '../../lib/errors.js';
import { repoRoot } from '../../lib/paths.js';
import { run } from './records.js';

const stateDir = mkdtempSync(path.join(os.tmpdir(), 'physvec-results-store-'));
process.env.PHYSVEC_STATE_DIR = stateDir;
const db = openResultsDb();
const open = (campaignId: string, extra: { scheduleId?: string | null; label?: string | null } = {}, at?: string) =>
  upsertCampaign(db, { campaignId, workflowId: `wf-${campaignId}`, scheduleId: extra.scheduleId ?? null, label: extra.label ?? null, spec: { models: ['scripted:m1'], passCriterion: 'executable' }, planned: 4 }, at);

test('the store is created in the state directory with its schema version, and migrating again is a no-op', () => {
  assert.equal(resultsDbPath(), path.join(stateDir, 'results.sqlite'));
  assert.equal((db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: number }).v, MIGRATIONS.at(-1)!.version);
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.deepEqual(migrate(db, MIGRATIONS), []);
  assert.equal(openResultsDb(), db, 'one handle per file');
});

test('upserts are idempotent: one campaign row, one row per run key, the first start and end kept', () => {
  open('c-idem', {}, '2026-01-01T00:00:00.000Z');
  open('c-idem', {}, '2026-01-02T00:00:00.000Z'); // a retried openCampaign
  assert.equal(listCampaigns(db).filter((c) => c.campaignId === 'c-idem').length, 1);
  assert.equal(getCampaign(db, 'c-idem')!.startedAt, '2026-01-01T00:00:00.000Z');

  const r1 = run({ campaignId: 'c-idem', task: 't1', m: { executable: false, tokensIn: 10 } });
  upsertRun(db, r1);
  upsertRun(db, r1);
  upsertRun(db, { ...r1, metrics: { ...r1.metrics!, executable: true, executableAtIteration: 2, tokensIn: 20 } }); // recorded again, newer
  upsertRun(db, { ...r1, outcome: 'skipped', metrics: null }); // a late "skipped" never hides a run that happened
  upsertRun(db, run({ campaignId: 'c-idem', task: 't2', m: { message: 'a, "quoted"\nmessage' } }));
  const runs = campaignRuns(db, 'c-idem');
  assert.equal(runs.length, 2);
  assert.equal(runs[0]!.outcome, 'done');
  assert.deepEqual([runs[0]!.metrics!.executable, runs[0]!.metrics!.tokensIn], [true, 20]);
  assert.deepEqual(recordedKeys(db, 'c-idem'), [r1.key, runs[1]!.key].sort());
  const cols = db.prepare('SELECT executable, tokens_in FROM runs WHERE campaign_id = ? AND key = ?').get('c-idem', r1.key);
  assert.deepEqual(cols, { executable: 1, tokens_in: 20 }, 'the metric columns follow the JSON');

  closeCampaign(db, 'c-idem', 'completed', '2026-01-01T01:00:00.000Z');
  closeCampaign(db, 'c-idem', 'completed', '2026-01-01T02:00:00.000Z'); // a retried closeCampaign
  assert.equal(getCampaign(db, 'c-idem')!.endedAt, '2026-01-01T01:00:00.000Z');
  assert.equal(getCampaign(db, 'c-idem')!.status, 'completed');
});

test('bad writes are BadInputErrors naming what to fix', () => {
  assert.throws(() => upsertRun(db, run({ campaignId: 'never-opened', task: 't1' })), (e: Error) => e instanceof BadInputError && /never-opened was never opened; call openCampaign/.test(e.message));
  open('c-bad');
  const bad = { ...run({ campaignId: 'c-bad', task: 't1' }), trial: 0 };
  assert.throws(() => upsertRun(db, bad), (e: Error) => e instanceof BadInputError && /trial/.test(e.message));
  assert.throws(() => closeCampaign(db, 'nope', 'failed'), (e: Error) => e instanceof BadInputError && /no campaign nope.*known campaigns: .*c-idem/.test(e.message));
});

test('the previous campaign: the same schedule first, completed and started before; else the same label', () => {
  const day = (d: number) => `2026-02-0${d}T00:00:00.000Z`;
  open('s1-a', { scheduleId: 's1', label: 'nightly' }, day(1));
  closeCampaign(db, 's1-a', 'completed', day(1).replace('T00', 'T05'));
  open('s1-b', { scheduleId: 's1', label: 'nightly' }, day(2));
  closeCampaign(db, 's1-b', 'failed', day(2).replace('T00', 'T05')); // failed: never the baseline
  open('s2-a', { scheduleId: 's2', label: 'nightly' }, day(3));
  closeCampaign(db, 's2-a', 'completed', day(3).replace('T00', 'T05')); // other schedule
  open('s1-c', { scheduleId: 's1', label: 'nightly' }, day(4));
  closeCampaign(db, 's1-c', 'completed', day(4).replace('T00', 'T05'));
  open('s1-d', { scheduleId: 's1', label: 'nightly' }, day(5)); // running now
  assert.equal(previousCampaign(db, 's1-d')?.campaignId, 's1-c');
  assert.equal(previousCampaign(db, 's1-c')?.campaignId, 's1-a');
  assert.equal(previousCampaign(db, 's1-a')?.campaignId ?? null, null);
  // The first campaign of a new schedule compares with the latest completed one of its label.
  open('s3-a', { scheduleId: 's3', label: 'nightly' }, day(6));
  assert.equal(previousCampaign(db, 's3-a')?.campaignId, 's1-c');
  // No schedule, no label: nothing to compare with.
  open('adhoc', {}, day(7));
  assert.equal(previousCampaign(db, 'adhoc'), null);
});

/** `physvec results …` through commander in this process; stdout captured. */
async function physvec(args: string[]): Promise<string> {
  const program = new Command('physvec').exitOverride();
  register(program);
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((c: string | Uint8Array) => (chunks.push(String(c)), true)) as typeof process.stdout.write;
  try {
    await program.parseAsync(args, { from: 'user' });
  } finally {
    process.stdout.write = write;
  }
  return chunks.join('');
}

test('results export writes CSV (one row per run, RFC 4180 quoting) and JSON (campaign, metrics, runs)', async () => {
  const csvFile = path.join(stateDir, 'c-idem.csv');
  await physvec(['results', 'export', 'c-idem', '--format', 'csv', '--out', csvFile]);
  const csv = readFileSync(csvFile, 'utf8');
  assert.equal(csv, runsToCsv(campaignRuns(db, 'c-idem')));
  const lines = csv.split('\r\n');
  const header = lines[0]!.split(',');
  assert.deepEqual(header.slice(0, 8), ['campaignId', 'key', 'taskId', 'topic', 'model', 'framework', 'trial', 'outcome']);
  const row1 = lines[1]!.split(',');
  const at = (name: string) => row1[header.indexOf(name)];
  assert.deepEqual([at('taskId'), at('executable'), at('executableAtIteration'), at('tokensIn'), at('unitAccuracy')], ['t1', 'true', '2', '20', '']);
  assert.ok(csv.includes('"a, ""quoted""\nmessage"'), 'a message with a comma, quotes and a newline is quoted');

  const json = JSON.parse(await physvec(['results', 'export', 'c-idem', '--format', 'json']));
  assert.equal(json.kind, 'physvec.campaign-results');
  assert.equal(json.campaign.campaignId, 'c-idem');
  assert.equal(json.runs.length, 2);
  assert.equal(json.metrics.passCriterion, 'executable');
  // t1 runs (at iteration 2), t2 does not: S = 1/2; pass@1 (executable) = 1 of 2 tasks.
  assert.equal(json.metrics.groups[0].S, 0.5);
  assert.deepEqual(json.metrics.passAtN[0].passRate, [0.5]);

  const list = JSON.parse(await physvec(['results', 'list', '--json']));
  const row = list.campaigns.find((c: { campaignId: string }) => c.campaignId === 'c-idem');
  assert.deepEqual([row.status, row.runs.recorded, row.S], ['completed', 2, 0.5]);
  await assert.rejects(physvec(['results', 'export', 'c-idem', '--format', 'xml']), /--format xml: use csv or json/);
});

test('the real CLI exits 2 on an unknown campaign id and names the known ones', async () => {
  const r = await execa(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'results', 'export', 'no-such-campaign'], {
    cwd: repoRoot, reject: false, env: { ...process.env, PHYSVEC_STATE_DIR: stateDir },
  });
  assert.equal(r.exitCode, 2, r.stderr);
  assert.match(r.stderr, /no campaign no-such-campaign in the results store; known campaigns: .*s1-a/);
  assert.equal(r.stdout, '');
});
