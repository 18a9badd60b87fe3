// Results and reports beyond one host (issue 29.6), against a real S3-compatible server (moto_server):
// host A (this process: the orchestration worker) opens a campaign and, at the same time as host B (a
// process of its own, its own state dir), records its runs; B also writes an evidence report. They
// share only the bucket. Host C, a fresh state dir on the same bucket, then runs `results list`,
// `results export` (CSV, JSON), `bench status`, `bench report` and `report <id>` as real processes and
// prints what the writing host prints (paths into the reading host's own state dir aside), none of
// the 41 runs lost; the reports it copied keep their relative links working. On SQLite per host (the
// code before this), host B cannot record into A's campaign at all and host C finds nothing.
// Then `physvec artifacts sync` moves a one-host state dir (SQLite results, reports) into the bucket,
// and a cluster host finds its campaign, runs and reports there.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createResultsActivities } from '../../activities/results/index.js';
import { campaignDir, reportDir } from '../../lib/reports/dirs.js';
import { repoRoot } from '../../lib/paths.js';
import { startMoto, type Moto } from '../helpers/moto.js';
import { ensureServer } from '../helpers/temporal.js';
import { mapParallel, runCli, runInProcess, type CliRun } from '../cli/run-cli.js';
import { run } from './records.js';
import { writeHostileReport } from './hostile-report.js';
import { SqliteResultsStore } from '../../lib/results/sqlite-results.js';
import { writeCampaignReport } from '../../lib/reports/campaign-report.js';
import { ArtifactStore } from '../../lib/artifacts/store.js';

const hosts = { A: '', B: '', C: '' };
for (const h of ['A', 'B', 'C'] as const) hosts[h] = mkdtempSync(path.join(os.tmpdir(), `physvec-host-${h}-`));
let moto: Moto;
before(async () => {
  moto = await startMoto();
  // This process is host A: its artifact store (and so its results store) is the bucket.
  Object.assign(process.env, moto.env('cluster'), { PHYSVEC_STATE_DIR: hosts.A });
  await ensureServer(); // `bench status` asks Temporal first
});
after(async () => moto?.stop());

/** Host B as a process of its own; resolves with its exit code and stderr. */
function hostB(arg: unknown): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests/results/bucket-host-b.ts'), JSON.stringify(arg)], {
      cwd: repoRoot, env: { ...process.env, PHYSVEC_STATE_DIR: hosts.B }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** A verb's output with the host's own state dir named <state>: what may differ between hosts. */
const same = (r: CliRun, state: string) => ({ code: r.code, stdout: r.stdout.split(state).join('<state>') });

test('two hosts write one campaign through the bucket; a third host reads results and reports with the CLI', { timeout: 300_000 }, async () => {
  const id = 'cluster-1';
  const reportWorkflowId = `campaign-${id}/task_hostile|scripted:hostile|physvec|t1`;
  const acts = createResultsActivities();
  const records = [
    ...Array.from({ length: 40 }, (_, k) => run({ campaignId: id, task: `task_${String(k).padStart(2, '0')}`, m: { executable: k % 3 !== 0, executableAtIteration: k % 3 ? 1 : null, tokensIn: 100 * k } })),
    { ...run({ campaignId: id, task: 'task_hostile', model: 'scripted:hostile', m: { status: 'failed', executable: true, executableAtIteration: 1 } }), workflowId: reportWorkflowId },
  ];
  await acts.openCampaign({ campaignId: id, workflowId: `campaign-${id}`, scheduleId: null, label: 'two hosts', spec: { models: ['scripted:m1'], passCriterion: 'executable' }, planned: records.length });
  const [b] = await Promise.all([
    hostB({ records: records.filter((_, k) => k % 2 === 0 || k === 40), reportWorkflowId }),
    Promise.all(records.filter((_, k) => k % 2 === 1 && k !== 40).map((r) => acts.recordRun(r))),
  ]);
  assert.equal(b.code, 0, `host B recorded its runs and wrote its report: ${b.stderr}`);
  await acts.closeCampaign({ campaignId: id, status: 'completed' });
  await acts.writeCampaignReport({ campaignId: id });

  const verbs = [['results', 'list'], ['results', 'export', id, '--format', 'csv'], ['results', 'export', id, '--format', 'json'], ['bench', 'status', id], ['bench', 'report', id], ['report', reportWorkflowId]];
  const writerOf = (v: string[]) => (v[0] === 'report' ? hosts.B : hosts.A);
  const onWriters: CliRun[] = [];
  for (const v of verbs) onWriters.push(await runInProcess(v, { PHYSVEC_STATE_DIR: writerOf(v) }));
  const onC = await mapParallel(verbs, 3, (v) => runCli(v, { PHYSVEC_STATE_DIR: hosts.C, PHYSVEC_LOG_LEVEL: 'ERROR' }));
  for (const [i, v] of verbs.entries()) {
    assert.equal(onWriters[i]!.stderr.includes('Error') ? onWriters[i]!.stderr : '', '', `${v.join(' ')} on the writing host`);
    assert.deepEqual(same(onC[i]!, hosts.C), same(onWriters[i]!, writerOf(v)), `${v.join(' ')}: host C prints what the writing host prints (stderr on C: ${onC[i]!.stderr})`);
  }
  const [list, , json, status, report, evidence] = onC.map((r) => r.stdout);
  assert.match(list!, new RegExp(`^${id}  completed .* runs 41/41 .*"two hosts"\\n  report: s3://${moto.bucket}/cluster/campaigns/${id}/report\\.html\\n$`));
  assert.deepEqual(JSON.parse(json!).runs.map((r: { key: string }) => r.key).sort(), records.map((r) => r.key).sort(), 'no run lost: each host\'s 20-odd records are there');
  assert.match(status!, /store completed\n {2}recorded 41\/41: done 41, error 0, skipped 0\n/);
  assert.match(report!, new RegExp(`report: ${hosts.C}/campaigns/${id}/report\\.html`));
  assert.match(evidence!, /failed \(task_hostile, stage reached scientific\)/);
  assert.equal(onC[5]!.code, 1, 'a failed run\'s report exits 1 on either host');

  // C copied the folders whole: the campaign page's link to B's evidence report and that report's figure resolve on C.
  process.env.PHYSVEC_STATE_DIR = hosts.C;
  const page = readFileSync(path.join(campaignDir(id), 'report.html'), 'utf8');
  const link = /class="run-report" href="([^"]+)"/.exec(page)?.[1];
  assert.ok(link && !path.isAbsolute(link), `the campaign page links the run's report relatively (${link})`);
  assert.equal(path.resolve(campaignDir(id), decodeURI(link).replace(/&amp;/g, '&')), path.join(reportDir(reportWorkflowId), 'report.html'));
  for (const f of ['report.html', 'report.json', 'figure.png', 'final.py']) assert.ok(existsSync(path.join(reportDir(reportWorkflowId), f)), `${f} of B's report is on C`);
  assert.ok(existsSync(path.join(campaignDir(id), 'figures')), 'the campaign figures came along');
});

test('artifacts sync moves a single host\'s SQLite results and reports into the bucket, where another host finds them', { timeout: 300_000 }, async () => {
  // The state dir of a user before the cluster: SQLite results, an evidence report, a campaign report, all local.
  const legacy = mkdtempSync(path.join(os.tmpdir(), 'physvec-host-legacy-'));
  const report = await writeHostileReport({ stateDir: legacy, workflowId: 'repro-legacy-1' }); // sets PHYSVEC_STATE_DIR
  const sqlite = new SqliteResultsStore();
  const id = 'legacy-1';
  const records = [
    { ...run({ campaignId: id, task: 'task_hostile', m: { status: 'failed', executable: true, executableAtIteration: 1, reportPath: report.htmlPath } }), workflowId: 'repro-legacy-1' },
    run({ campaignId: id, task: 'task_b', m: { executable: true, executableAtIteration: 2 } }),
    run({ campaignId: id, task: 'task_c', m: null }),
  ];
  await sqlite.openCampaign({ campaignId: id, workflowId: `campaign-${id}`, scheduleId: null, label: null, spec: { passCriterion: 'executable' }, planned: 3 });
  for (const r of records) await sqlite.recordRun(r);
  await sqlite.closeCampaign(id, 'completed');
  await writeCampaignReport(sqlite, id, { artifacts: new ArtifactStore(path.join(legacy, 'artifacts')) });

  const to = `s3://${moto.bucket}/moved`;
  const sync = async () => {
    const r = await runInProcess(['artifacts', 'sync', '--to', to, '--json'], { PHYSVEC_STATE_DIR: legacy, PHYSVEC_ARTIFACTS_URL: undefined });
    assert.equal(r.code, 0, r.stderr);
    const { results, reports } = JSON.parse(r.stdout);
    return { results: { ...results, store: path.relative(legacy, results.store) }, reports };
  };
  assert.deepEqual(await sync(), { results: { store: 'results.sqlite', campaigns: 1, campaignsCopied: 1, runs: 3, runsCopied: 3 }, reports: { folders: 2, copied: 2 } });
  assert.deepEqual(await sync(), { results: { store: 'results.sqlite', campaigns: 1, campaignsCopied: 0, runs: 3, runsCopied: 0 }, reports: { folders: 2, copied: 0 } }, 'a second sync changes nothing');

  // A host of the cluster: a fresh state dir, the bucket.
  const onCluster = { PHYSVEC_STATE_DIR: mkdtempSync(path.join(os.tmpdir(), 'physvec-host-D-')), PHYSVEC_ARTIFACTS_URL: to, PHYSVEC_LOG_LEVEL: 'ERROR' };
  const [list, exported, bench, evidence] = await mapParallel([['results', 'list'], ['results', 'export', id, '--format', 'json'], ['bench', 'report', id], ['report', 'repro-legacy-1']], 2, (v) => runCli(v, onCluster));
  assert.match(list!.stdout, new RegExp(`^${id}  completed .* runs 3/3 .*\\n  report: ${to}/campaigns/${id}/report\\.html\\n$`), 'the report path now names the bucket, readable from any host');
  assert.deepEqual(JSON.parse(exported!.stdout).runs, await sqlite.campaignRuns(id), 'every run as the SQLite store had it');
  assert.equal(bench!.code, 0, bench!.stderr);
  assert.match(bench!.stdout, new RegExp(`report: ${onCluster.PHYSVEC_STATE_DIR}/campaigns/${id}/report\\.html`));
  assert.equal(evidence!.code, 1, evidence!.stderr);
  assert.match(evidence!.stdout, /repro-legacy-1: failed \(task_hostile/);
});
