// `physvec view` (issue 29.7) on a stubbed state directory: a results store with one campaign of two
// runs and the evidence reports on disk (one of a campaign run, one of a run of its own), Temporal
// unreachable. The static index lists every run with its verdict, task, model and cost, the campaign
// with its runs beneath it, relative links that reach the reports, and each run's Temporal UI page;
// the served index answers on loopback and hands out report files but nothing else of the state dir.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import { openResultsDb } from '../../lib/results/db.js';
import { upsertCampaign, upsertRun } from '../../lib/results/store.js';
import type { RunMetrics } from '../../schemas/campaign.js';
import { HOSTILE, writeHostileReport } from '../results/hostile-report.js';
import { runCli } from './run-cli.js';

const stateDir = mkdtempSync(path.join(os.tmpdir(), 'physvec-view-'));
const CAMPAIGN = 'nightly-view';
const PASSED = `${CAMPAIGN}--task_a`;
const FAILED = `${CAMPAIGN}--task_b`;
const ALONE = 'repro-task_hostile-alone';
let env: Record<string, string>;

function metrics(m: Partial<RunMetrics>): RunMetrics {
  return {
    framework: 'physvec', status: 'passed', executable: true, executableAtIteration: 1, iterations: 1, unitAccuracy: 1, integrationAccuracy: 1,
    tokensIn: 1000, tokensOut: 200, toolCalls: 0, llmCalls: 5, costUsd: 0.0123, scientificCompleted: true, scientificIteration: 1, assertionsPassed: 1,
    assertionsTotal: 1, rubricGrade: 1, wallMs: 1000, scripted: false, reportPath: null, ...m,
  };
}

const closedPort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});

before(async () => {
  env = { PHYSVEC_STATE_DIR: stateDir, TEMPORAL_ADDRESS: `127.0.0.1:${await closedPort()}`, PHYSVEC_CONNECT_TIMEOUT_MS: '1500', PHYSVEC_UI_URL: 'http://ui.example:8233' };
  await writeHostileReport({ stateDir, workflowId: FAILED, runId: 'run-b' });
  await writeHostileReport({ stateDir, workflowId: ALONE, runId: 'run-alone' });
  const db = openResultsDb(path.join(stateDir, 'results.sqlite'));
  upsertCampaign(db, { campaignId: CAMPAIGN, workflowId: CAMPAIGN, scheduleId: null, label: `label ${HOSTILE}`, spec: {}, planned: 2 });
  const run = (workflowId: string, taskId: string, model: string, m: RunMetrics) => upsertRun(db, {
    campaignId: CAMPAIGN, key: taskId, taskId, taskFile: `${taskId}.json`, topic: 'dmrg', model, framework: 'physvec', trial: 1, workflowId, outcome: 'done', metrics: m, recordedAt: '2026-01-03T00:00:00.000Z',
  });
  run(PASSED, 'task_a', 'openai:gpt-5.1', metrics({}));
  run(FAILED, 'task_hostile', 'scripted:hostile', metrics({ status: 'failed', costUsd: 0, tokensIn: 100, tokensOut: 50, scripted: true }));
  db.close();
});

/** The index's row of `workflowId`: its cells' text and its links. */
function rowOf(html: string, workflowId: string): { cls: string; cells: string[]; links: Record<string, string> } {
  const tr = html.split('<tr class="').find((t) => t.includes(`<code>${workflowId}</code>`));
  assert.ok(tr, `a row for ${workflowId}`);
  const cells = [...tr.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').trim());
  const links = Object.fromEntries([...tr.matchAll(/<a class="(\w+)" href="([^"]+)">/g)].map((m) => [m[1]!, m[2]!]));
  return { cls: tr.slice(0, tr.indexOf('"')), cells, links };
}

test('physvec view --out: every run and campaign with verdict, task, model, cost and working links', async () => {
  const out = path.join(stateDir, 'index-out');
  const r = await runCli(['view', '--out', out], env);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /cannot reach the Temporal server at 127\.0\.0\.1:\d+ .*only the results store and the reports on disk are listed/);
  assert.match(r.stdout, /wrote .*index\.html: 1 campaign\(s\) with 2 run\(s\), 1 other run\(s\)/);
  assert.match(r.stdout, /Temporal UI: http:\/\/ui\.example:8233\/namespaces\/default\/workflows\?query=WorkflowType%20IN%20/);
  const html = readFileSync(path.join(out, 'index.html'), 'utf8');
  assert.doesNotMatch(html, /<script/i, 'the hostile label is text');
  assert.ok(html.includes('label &lt;script&gt;alert(1)&lt;/script&gt;'));
  // columns: workflow, verdict, task, model, tokens, cost, stage, build, start, end, links
  const camp = rowOf(html, CAMPAIGN);
  assert.equal(camp.cls, 'campaign');
  assert.deepEqual(camp.cells.slice(1, 6), ['running', '2 run(s)', '', '1100 / 250', '$0.0123']);
  const passed = rowOf(html, PASSED);
  assert.equal(passed.cls, 'child');
  assert.deepEqual(passed.cells.slice(1, 6), ['passed', 'task_a', 'openai/gpt-5.1', '1000 / 200', '$0.0123']);
  assert.equal(passed.links.report, undefined, 'no report on disk, no link');
  assert.equal(passed.links.ui, `http://ui.example:8233/namespaces/default/workflows/${encodeURIComponent(PASSED)}`);
  const failed = rowOf(html, FAILED);
  assert.equal(failed.cls, 'child');
  assert.deepEqual(failed.cells.slice(1, 6), ['failed', 'task_hostile', 'scripted', '100 / 50', '$0.0000'], 'the store\'s metrics first');
  assert.equal(failed.links.ui, `http://ui.example:8233/namespaces/default/workflows/${encodeURIComponent(FAILED)}/run-b/history`, 'the run id from its report');
  const alone = rowOf(html, ALONE);
  assert.equal(alone.cls, 'run');
  assert.deepEqual(alone.cells.slice(1, 7), ['failed', 'task_hostile', 'scripted', '100 / 50', '$0.0000', 'scientific']);
  for (const row of [failed, alone]) {
    assert.doesNotMatch(row.links.report!, /^(\/|file:)/, 'relative');
    const target = path.resolve(out, decodeURIComponent(row.links.report!));
    assert.ok(existsSync(target), `${row.links.report} reaches ${target}`);
    assert.match(readFileSync(target, 'utf8'), /<h1>Reproduction of/);
  }
});

test('physvec view --json: the same index as one document', async () => {
  const r = await runCli(['view', '--json'], env);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.deepEqual(doc.campaigns.map((c: { workflowId: string; children: { workflowId: string }[] }) => [c.workflowId, c.children.map((x) => x.workflowId)]), [[CAMPAIGN, [PASSED, FAILED]]]);
  assert.deepEqual(doc.runs.map((x: { workflowId: string; verdict: string; sources: string[] }) => [x.workflowId, x.verdict, x.sources]), [[ALONE, 'failed', ['report']]]);
});

test('physvec view serves the index on loopback, report files and nothing else of the state dir', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli', 'main.ts'), 'view', '--port', '0'], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /serving the index of runs and campaigns at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('close', (code) => reject(new Error(`view exited ${code}: ${out}`)));
    });
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'none'/);
    const html = await res.text();
    const link = rowOf(html, ALONE).links.report!;
    assert.match(link, /^\/files\/reports\//);
    const report = await fetch(new URL(link, url));
    assert.equal(report.status, 200);
    assert.match(await report.text(), /<h1>Reproduction of/);
    for (const bad of ['/files/results.sqlite', '/files/reports/../results.sqlite', '/files/reports/%2e%2e/results.sqlite']) {
      assert.equal((await fetch(new URL(bad, url))).status, 404, bad);
    }
  } finally {
    child.kill('SIGTERM');
  }
});
