// The CI campaign: the fast subset of the suite × {physvec, react, react-rag, 1-shot} × 2 trials,
// started with `physvec bench run` (workers in its process), completes with one record per planned
// run and a report; the report's metrics equal what this test computes by hand from the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ensureServer } from '../helpers/temporal.js';
import { repoRoot } from '../../lib/paths.js';
import type { RunRecord } from '../../schemas/campaign.js';
import { CAMPAIGN_MODEL, fastSubset, missingPieces, storedRuns } from './support.js';

const run = promisify(execFile);
const FRAMEWORKS = ['physvec', 'react', 'react-rag', '1-shot'];

async function physvec(args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), ...args], {
    env: { ...process.env, PHYSVEC_LOG_LEVEL: 'ERROR' },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 3_000_000,
  });
  return JSON.parse(stdout);
}

const close = (a: number | null, b: number | null, what: string) => {
  if (a === null || b === null) return assert.equal(a, b, what);
  assert.ok(Math.abs(a - b) < 1e-9, `${what}: report ${a}, by hand ${b}`);
};

/** Executability, accuracies, tokens, completions of one set of records, the plain way. */
function byHand(records: RunRecord[]) {
  let runs = 0, executable = 0, unitSum = 0, unitN = 0, integSum = 0, integN = 0, tinSum = 0, toutSum = 0, withMetrics = 0, cost = 0;
  const reached = [0, 0, 0, 0, 0, 0, 0, 0];
  const tasks = new Set<string>();
  const completed = new Set<string>();
  for (const r of records) {
    if (r.outcome === 'skipped') continue;
    runs++;
    tasks.add(r.taskId);
    const m = r.metrics;
    if (!m) continue;
    withMetrics++;
    if (m.executable) executable++;
    if (m.unitAccuracy !== null) { unitSum += m.unitAccuracy; unitN++; }
    if (m.integrationAccuracy !== null) { integSum += m.integrationAccuracy; integN++; }
    tinSum += m.tokensIn;
    toutSum += m.tokensOut;
    cost += m.costUsd;
    if (m.scientificCompleted) completed.add(r.taskId);
    for (let k = 1; k <= 8; k++) if (m.executableAtIteration !== null && m.executableAtIteration <= k) reached[k - 1]!++;
  }
  return {
    runs,
    tasks: tasks.size,
    executable,
    S: runs ? executable / runs : null,
    unitAccuracy: unitN ? unitSum / unitN : null,
    integrationAccuracy: integN ? integSum / integN : null,
    tokensIn: withMetrics ? tinSum / withMetrics : null,
    tokensOut: withMetrics ? toutSum / withMetrics : null,
    totalCostUsd: cost,
    completedTasks: completed.size,
    executabilityByIteration: reached.map((n) => (runs ? n / runs : 0)),
  };
}

/** Fig. 6c by hand: share of tasks with a pass among trials 1..N. */
function passAtNByHand(records: RunRecord[], criterion: 'executable' | 'scientific', trials: number): number[] {
  const tasks = [...new Set(records.map((r) => r.taskId))];
  const out: number[] = [];
  for (let n = 1; n <= trials; n++) {
    let passedTasks = 0;
    for (const t of tasks) {
      const ok = records.some((r) => r.taskId === t && r.trial <= n && r.outcome !== 'skipped' && r.metrics !== null &&
        (criterion === 'executable' ? r.metrics.executable : r.metrics.scientificCompleted));
      if (ok) passedTasks++;
    }
    out.push(passedTasks / tasks.length);
  }
  return out;
}

const pieces = missingPieces();
test('CI campaign: fast subset × 4 frameworks × 2 trials completes; report metrics match the run records', { timeout: 3_600_000, skip: pieces ? `campaign pieces missing: ${pieces}` : false }, async () => {
  await ensureServer();
  const tasks = fastSubset(2);
  assert.ok(tasks.length >= 1, 'tasks with campaign cassettes');
  const started = Date.now();
  const out = await physvec([
    'bench', 'run', '--tasks', tasks.join(','), '--models', CAMPAIGN_MODEL, '--frameworks', FRAMEWORKS.join(','),
    '--trials', '2', '--concurrency', '4', '--pass-criterion', 'executable', '--workers', 'in-process', '--json',
  ]);
  console.log(`# CI campaign ${out.campaignId}: ${out.planned} runs in ${((Date.now() - started) / 1000).toFixed(0)} s; counts ${JSON.stringify(out.counts)}`);
  const planned = tasks.length * FRAMEWORKS.length * 2;
  assert.equal(out.planned, planned);
  assert.equal(out.counts.done + out.counts.failed + out.counts.skipped, planned, 'every planned run has an outcome');

  const records = storedRuns(out.campaignId);
  assert.equal(records.length, planned, 'one store record per planned run');
  assert.equal(new Set(records.map((r) => r.key)).size, planned);
  const errors = records.filter((r) => r.outcome !== 'done');
  assert.deepEqual(errors.map((r) => `${r.key}: ${r.metrics?.message}`), [], 'every scripted run completes');
  for (const f of FRAMEWORKS) assert.equal(records.filter((r) => r.framework === f).length, tasks.length * 2, `${f}: all trials ran`);

  assert.ok(existsSync(out.report.htmlPath), 'report.html exists');
  const report = JSON.parse(readFileSync(out.report.jsonPath, 'utf8'));
  assert.equal(report.campaign.status, 'completed');
  assert.equal(report.metrics.totals.recorded, planned);

  // Every (topic, model, framework) group, and every (model, framework) pair, by hand.
  for (const g of report.metrics.groups) {
    const mine = byHand(records.filter((r) => r.topic === g.topic && r.model === g.model && r.framework === g.framework));
    const scope = `${g.topic}/${g.framework}`;
    assert.equal(g.runs, mine.runs, `${scope} runs`);
    assert.equal(g.tasks, mine.tasks, `${scope} tasks`);
    assert.equal(g.executable, mine.executable, `${scope} executable`);
    close(g.S, mine.S, `${scope} S`);
    close(g.unitAccuracy, mine.unitAccuracy, `${scope} unit accuracy`);
    close(g.integrationAccuracy, mine.integrationAccuracy, `${scope} integration accuracy`);
    close(g.tokensIn, mine.tokensIn, `${scope} T_i`);
    close(g.tokensOut, mine.tokensOut, `${scope} T_o`);
    close(g.totalCostUsd, mine.totalCostUsd, `${scope} cost`);
    assert.equal(g.completedTasks, mine.completedTasks, `${scope} completed tasks`);
    g.executabilityByIteration.forEach((v: number, i: number) => close(v, mine.executabilityByIteration[i]!, `${scope} executability at k=${i + 1}`));
  }
  const groupsCovered = new Set(report.metrics.groups.map((g: { topic: string; framework: string }) => `${g.topic}/${g.framework}`));
  assert.equal(groupsCovered.size, new Set(records.map((r) => `${r.topic}/${r.framework}`)).size, 'every group of the records is in the report');
  for (const p of report.metrics.passAtN) {
    const mine = passAtNByHand(records.filter((r) => r.model === p.model && r.framework === p.framework), 'executable', 2);
    p.passRate.forEach((v: number, i: number) => close(v, mine[i]!, `${p.framework} pass@${i + 1}`));
  }
  let tin = 0;
  for (const r of records) tin += r.metrics?.tokensIn ?? 0;
  assert.equal(report.metrics.totals.tokensIn, tin, 'total input tokens');

  // The other verbs read the same campaign back (the store; no worker needed).
  const status = await physvec(['bench', 'status', out.campaignId, '--json']);
  assert.equal(status.workflow.status, 'COMPLETED');
  assert.equal(status.store.runs.recorded, planned);
  const rep = await physvec(['bench', 'report', out.campaignId, '--json']);
  assert.equal(rep.jsonPath, out.report.jsonPath);
  assert.equal(rep.summary.length, FRAMEWORKS.length, 'one summary row per (model, framework)');
});
