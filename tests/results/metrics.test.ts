// The paper's metrics from run records, checked against values worked out by hand below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeCampaignMetrics } from '../../lib/metrics/compute.js';
import { compareMetrics } from '../../lib/metrics/regressions.js';
import type { GroupMetrics } from '../../lib/metrics/types.js';
import { run } from './records.js';

const close = (a: number | null, b: number, what: string) => assert.ok(a != null && Math.abs(a - b) < 1e-12, `${what}: ${a} ≠ ${b}`);
const find = (gs: GroupMetrics[], topic: string, model: string, framework: string) => {
  const g = gs.find((x) => x.topic === topic && x.model === model && x.framework === framework);
  assert.ok(g, `group ${topic}/${model}/${framework}`);
  return g;
};

// Group A: dmrg × m1 × physvec, tasks t1, t2 × trials 1, 2.
const A = [
  run({ task: 't1', trial: 1, m: { executable: true, executableAtIteration: 1, unitAccuracy: 1, integrationAccuracy: 1, tokensIn: 1000, tokensOut: 200, toolCalls: 2, costUsd: 0.01, wallMs: 1000, scientificCompleted: true, scientificIteration: 1 } }),
  run({ task: 't1', trial: 2, m: { executable: true, executableAtIteration: 3, unitAccuracy: 0.5, integrationAccuracy: null, tokensIn: 3000, tokensOut: 400, toolCalls: 4, costUsd: 0.03, wallMs: 3000 } }),
  run({ task: 't2', trial: 1, m: { executable: false, executableAtIteration: null, unitAccuracy: 0.25, integrationAccuracy: 0.5, tokensIn: 2000, tokensOut: 600, toolCalls: 0, costUsd: 0.02, wallMs: 2000 } }),
  run({ task: 't2', trial: 2, m: { executable: true, executableAtIteration: 8, unitAccuracy: null, integrationAccuracy: 0, tokensIn: 2000, tokensOut: 800, toolCalls: 6, costUsd: 0.04, wallMs: 6000, scientificCompleted: true, scientificIteration: 2 } }),
];
// Group B: nqs × m1 × react: t3 passes (executable) at trial 1 so trial 2 is skipped; t4's trial 1 failed outright.
const B = [
  run({ task: 't3', topic: 'nqs', framework: 'react', trial: 1, m: { executable: true, executableAtIteration: 2, tokensIn: 500, tokensOut: 100, toolCalls: 1 } }),
  run({ task: 't3', topic: 'nqs', framework: 'react', trial: 2, m: null }),
  run({ task: 't4', topic: 'nqs', framework: 'react', trial: 1, outcome: 'error', m: null }),
  run({ task: 't4', topic: 'nqs', framework: 'react', trial: 2, m: { executable: false, tokensIn: 300, tokensOut: 50, toolCalls: 0 } }),
];
// Group C: dmrg × m2 × physvec, one run.
const C = [run({ task: 't1', model: 'scripted:m2', trial: 1, m: { executable: true, executableAtIteration: 1, tokensIn: 100, tokensOut: 10, scientificCompleted: true, scientificIteration: 3 } })];

test('S, accuracies, iteration curve and efficiency per topic × model × framework', () => {
  const m = computeCampaignMetrics([...A, ...B, ...C]);
  assert.deepEqual(m.topics, ['dmrg', 'nqs']);
  assert.deepEqual(m.models, ['scripted:m1', 'scripted:m2']);
  assert.deepEqual(m.frameworks, ['physvec', 'react']);
  assert.equal(m.groups.length, 3);

  const a = find(m.groups, 'dmrg', 'scripted:m1', 'physvec');
  assert.equal(a.runs, 4);
  close(a.S, 0.75, 'S A'); // 3 executable of 4
  close(a.unitAccuracy, 0.5833333333333334, 'unit A'); // (1 + 0.5 + 0.25) / 3, the null ignored
  close(a.integrationAccuracy, 0.5, 'integration A'); // (1 + 0.5 + 0) / 3
  // executableAtIteration = 1, 3, null, 8: k=1 → 1/4; k=2 → 1/4; k=3..7 → 2/4; k=8 → 3/4.
  assert.deepEqual(a.executabilityByIteration, [0.25, 0.25, 0.5, 0.5, 0.5, 0.5, 0.5, 0.75]);
  close(a.tokensIn, 2000, 'T_i A'); // (1000 + 3000 + 2000 + 2000) / 4
  close(a.tokensOut, 500, 'T_o A'); // (200 + 400 + 600 + 800) / 4
  close(a.toolCalls, 3, 'T_c A'); // (2 + 4 + 0 + 6) / 4
  close(a.costUsd, 0.025, 'cost A'); // (0.01 + 0.03 + 0.02 + 0.04) / 4
  close(a.wallMs, 3000, 'wall A'); // (1000 + 3000 + 2000 + 6000) / 4
  close(a.totalCostUsd, 0.1, 'total cost A');
  assert.equal(a.completedRuns, 2);
  assert.equal(a.completedTasks, 2); // t1 (trial 1) and t2 (trial 2)

  const b = find(m.groups, 'nqs', 'scripted:m1', 'react');
  assert.equal(b.runs, 3); // the skipped trial does not count
  assert.equal(b.skipped, 1);
  close(b.S, 1 / 3, 'S B'); // t3 t1 runs; t4 t1 failed outright; t4 t2 does not run
  assert.equal(b.unitAccuracy, null); // no run has one
  assert.equal(b.integrationAccuracy, null);
  assert.deepEqual(b.executabilityByIteration, [0, ...Array(7).fill(1 / 3)]); // executable at iteration 2
  close(b.tokensIn, 400, 'T_i B'); // (500 + 300) / 2: the run without metrics has no tokens to average
  close(b.tokensOut, 75, 'T_o B'); // (100 + 50) / 2
  close(b.toolCalls, 0.5, 'T_c B'); // (1 + 0) / 2

  // Over models: dmrg × physvec = A + C: 4 executable of 5; at k=1: t1 t1 (A) and C → 2/5.
  const d = find(m.byTopicFramework, 'dmrg', '*', 'physvec');
  close(d.S, 0.8, 'S dmrg physvec');
  close(d.executabilityByIteration[0]!, 0.4, 'k=1 dmrg physvec');
  // Over topics: m1 × physvec is A alone.
  close(find(m.byModelFramework, '*', 'scripted:m1', 'physvec').S, 0.75, 'S m1 physvec');

  // 9 records, 1 skipped, 1 error; T_i = 1000 + 3000 + 2000 + 2000 + 500 + 300 + 100 = 8900.
  assert.deepEqual(
    { recorded: m.totals.recorded, runs: m.totals.runs, skipped: m.totals.skipped, errors: m.totals.errors, tokensIn: m.totals.tokensIn, scripted: m.totals.scripted },
    { recorded: 9, runs: 8, skipped: 1, errors: 1, tokensIn: 8900, scripted: true },
  );
});

test('pass rate vs number of trials follows the campaign pass criterion', () => {
  const sci = computeCampaignMetrics([...A, ...B], { passCriterion: 'scientific' });
  const exe = computeCampaignMetrics([...A, ...B], { passCriterion: 'executable' });
  const pa = (m: typeof sci, fw: string) => m.passAtN.find((p) => p.model === 'scripted:m1' && p.framework === fw)!;
  // physvec, scientific: t1 first completes at trial 1, t2 at trial 2 → N=1: 1/2, N=2: 2/2.
  assert.deepEqual(pa(sci, 'physvec').passRate, [0.5, 1]);
  // physvec, executable: t1 runs at trial 1, t2 first at trial 2 → the same.
  assert.deepEqual(pa(exe, 'physvec').passRate, [0.5, 1]);
  // react, scientific: nothing completes → 0, 0.
  assert.deepEqual(pa(sci, 'react').passRate, [0, 0]);
  // react, executable: t3 at trial 1 (its skipped trial 2 changes nothing), t4 never → 1/2, 1/2.
  assert.deepEqual(pa(exe, 'react').passRate, [0.5, 0.5]);
  assert.equal(pa(exe, 'react').tasks, 2);
});

test('completed tasks per model × framework, cumulative by Scientific iteration', () => {
  const m = computeCampaignMetrics([...A, ...B, ...C]);
  const c = (model: string, fw: string) => m.completed.find((x) => x.model === model && x.framework === fw)!;
  // m1 physvec: t1 completed at Scientific iteration 1, t2 at 2 → 2 tasks; cumulative [1, 2].
  assert.deepEqual({ ...c('scripted:m1', 'physvec') }, { model: 'scripted:m1', framework: 'physvec', tasks: 2, completed: 2, byScientificIteration: [1, 2] });
  // m2 physvec: t1 at iteration 3 → [0, 0, 1].
  assert.deepEqual(c('scripted:m2', 'physvec').byScientificIteration, [0, 0, 1]);
  assert.equal(c('scripted:m1', 'react').completed, 0);
});

test('regressions beyond tolerance are flagged, small moves are not', () => {
  const before = computeCampaignMetrics([...A, ...B]);
  // After: t1 trial 2 no longer runs (S 0.75 → 0.5) and t2 no longer completes (completed 2 → 1);
  // T_i of t1 trial 1 rises 1000 → 3000, so the mean goes 2000 → 2500 (+25 % > 20 %);
  // T_o of t1 trial 1 rises 200 → 400, the mean 500 → 550 (+10 %, within tolerance).
  const A2 = [
    run({ task: 't1', trial: 1, m: { ...A[0]!.metrics!, tokensIn: 3000, tokensOut: 400 } }),
    run({ task: 't1', trial: 2, m: { ...A[1]!.metrics!, executable: false, executableAtIteration: null } }),
    A[2]!,
    run({ task: 't2', trial: 2, m: { ...A[3]!.metrics!, scientificCompleted: false, scientificIteration: null } }),
  ];
  const after = computeCampaignMetrics([...A2, ...B]);
  const cmp = compareMetrics(before, after);
  const flagged = cmp.regressions.map((r) => `${r.metric} @ ${r.scope}: ${r.before} → ${r.after}`).sort();
  assert.deepEqual(flagged, [
    'S @ dmrg · scripted:m1 · physvec: 0.75 → 0.5',
    'T_i (mean input tokens) @ dmrg · scripted:m1 · physvec: 2000 → 2500',
    'completed tasks @ all topics · scripted:m1 · physvec: 2 → 1',
    // scientific pass rate at N=2: t2 no longer completes → 2/2 → 1/2.
    'pass rate at N=2 (scientific) @ all topics · scripted:m1 · physvec: 1 → 0.5',
  ].sort());
  assert.equal(cmp.comparedScopes, 2);
  assert.deepEqual(compareMetrics(before, before).regressions, [], 'a campaign does not regress against itself');
  // The reverse direction reads as improvements.
  assert.equal(compareMetrics(after, before).improvements.length, 4);
});
