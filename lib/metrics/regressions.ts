// Comparison of a campaign with the previous one of the same schedule: which metric got worse, where,
// beyond a tolerance. Only scopes present in both campaigns are compared (a changed task selection
// is not a regression); the report lists what could not be compared.
import type { CampaignMetrics, GroupMetrics } from './types.js';

export interface Regression {
  metric: string;
  scope: string;
  before: number;
  after: number;
}

export interface Comparison {
  regressions: Regression[];
  improvements: Regression[];
  comparedScopes: number;
  onlyBefore: string[];
  onlyAfter: string[];
}

/**
 * Tolerances: shares (S, accuracies, pass rate) may drop by at most `share` absolute; a completed
 * count may not drop at all; per-run means of tokens, tool calls and dollars may rise by at most
 * `relative` (20 %). Wall time is not compared: it measures the machine's load as much as the run.
 */
export const TOLERANCE = { share: 0.05, relative: 0.2 } as const;

export const scopeName = (g: { topic: string; model: string; framework: string }) =>
  [g.topic === '*' ? 'all topics' : g.topic, g.model === '*' ? 'all models' : g.model, g.framework].join(' · ');

type Direction = 'higher-is-better' | 'lower-is-better';
const GROUP_METRICS: { metric: string; get: (g: GroupMetrics) => number | null; dir: Direction }[] = [
  { metric: 'S', get: (g) => g.S, dir: 'higher-is-better' },
  { metric: 'unit accuracy', get: (g) => g.unitAccuracy, dir: 'higher-is-better' },
  { metric: 'integration accuracy', get: (g) => g.integrationAccuracy, dir: 'higher-is-better' },
  { metric: 'T_i (mean input tokens)', get: (g) => g.tokensIn, dir: 'lower-is-better' },
  { metric: 'T_o (mean output tokens)', get: (g) => g.tokensOut, dir: 'lower-is-better' },
  { metric: 'T_c (mean tool calls)', get: (g) => g.toolCalls, dir: 'lower-is-better' },
  { metric: 'cost per run (USD)', get: (g) => g.costUsd, dir: 'lower-is-better' },
];

/** Did the value move the wrong way beyond tolerance? Shares are absolute, counts/means relative. */
function worse(before: number, after: number, dir: Direction, kind: 'share' | 'mean' | 'count'): boolean {
  if (kind === 'share') return dir === 'higher-is-better' ? after < before - TOLERANCE.share : after > before + TOLERANCE.share;
  if (kind === 'count') return dir === 'higher-is-better' ? after < before : after > before;
  // A mean rising from 0 (e.g. tool calls) is a change of kind, flagged when it is at least 1.
  if (before === 0) return dir === 'lower-is-better' ? after >= 1 : false;
  return dir === 'lower-is-better' ? after > before * (1 + TOLERANCE.relative) : after < before * (1 - TOLERANCE.relative);
}

export function compareMetrics(before: CampaignMetrics, after: CampaignMetrics): Comparison {
  const regressions: Regression[] = [];
  const improvements: Regression[] = [];
  const check = (metric: string, scope: string, b: number | null, a: number | null, dir: Direction, kind: 'share' | 'mean' | 'count') => {
    if (b == null || a == null || !Number.isFinite(b) || !Number.isFinite(a)) return;
    if (worse(b, a, dir, kind)) regressions.push({ metric, scope, before: b, after: a });
    else if (worse(a, b, dir, kind)) improvements.push({ metric, scope, before: b, after: a });
  };
  const index = (gs: GroupMetrics[]) => new Map(gs.map((g) => [scopeName(g), g]));
  const bGroups = index(before.groups);
  const aGroups = index(after.groups);
  let compared = 0;
  for (const [scope, a] of aGroups) {
    const b = bGroups.get(scope);
    if (!b) continue;
    compared++;
    for (const m of GROUP_METRICS) {
      const kind = m.metric === 'S' || m.metric.includes('accuracy') ? 'share' : 'mean';
      check(m.metric, scope, m.get(b), m.get(a), m.dir, kind);
    }
  }
  const pairName = (p: { model: string; framework: string }) => scopeName({ topic: '*', ...p });
  const bCompleted = new Map(before.completed.map((c) => [pairName(c), c]));
  for (const a of after.completed) {
    const b = bCompleted.get(pairName(a));
    if (b) check('completed tasks', pairName(a), b.completed, a.completed, 'higher-is-better', 'count');
  }
  // Pass rates under different criteria (executable vs scientific) are not comparable.
  const bPass = new Map(before.passCriterion === after.passCriterion ? before.passAtN.map((p) => [pairName(p), p]) : []);
  for (const a of after.passAtN) {
    const b = bPass.get(pairName(a));
    if (!b) continue;
    // Compare at the largest N both campaigns ran.
    const n = Math.min(a.passRate.length, b.passRate.length);
    if (n > 0) check(`pass rate at N=${n} (${after.passCriterion})`, pairName(a), b.passRate[n - 1]!, a.passRate[n - 1]!, 'higher-is-better', 'share');
  }
  return {
    regressions,
    improvements,
    comparedScopes: compared,
    onlyBefore: [...bGroups.keys()].filter((k) => !aGroups.has(k)),
    onlyAfter: [...aGroups.keys()].filter((k) => !bGroups.has(k)),
  };
}
