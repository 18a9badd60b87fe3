// Executability, accuracies, efficiency and completions of a set of runs (one group of Fig. 5a/6a).
import type { Framework, RunRecord } from '../../schemas/campaign.js';
import { MAX_ITERATIONS, type GroupMetrics } from './types.js';

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

/** A run happened when it was not skipped by early stop; an `error` run counts as not executable. */
export const happened = (r: RunRecord) => r.outcome !== 'skipped';

export function groupMetrics(scope: { topic: string; model: string; framework: Framework }, records: RunRecord[]): GroupMetrics {
  const runs = records.filter(happened);
  const withMetrics = runs.flatMap((r) => (r.metrics ? [r.metrics] : []));
  const executable = runs.filter((r) => r.metrics?.executable === true).length;
  const curve = Array.from({ length: MAX_ITERATIONS }, (_, i) => {
    const k = i + 1;
    const reached = runs.filter((r) => r.metrics?.executableAtIteration != null && r.metrics.executableAtIteration <= k).length;
    return runs.length ? reached / runs.length : 0;
  });
  const completedTasks = new Set(runs.filter((r) => r.metrics?.scientificCompleted).map((r) => r.taskId));
  return {
    ...scope,
    runs: runs.length,
    skipped: records.length - runs.length,
    tasks: new Set(runs.map((r) => r.taskId)).size,
    executable,
    S: runs.length ? executable / runs.length : null,
    unitAccuracy: mean(withMetrics.flatMap((m) => (m.unitAccuracy == null ? [] : [m.unitAccuracy]))),
    integrationAccuracy: mean(withMetrics.flatMap((m) => (m.integrationAccuracy == null ? [] : [m.integrationAccuracy]))),
    executabilityByIteration: curve,
    tokensIn: mean(withMetrics.map((m) => m.tokensIn)),
    tokensOut: mean(withMetrics.map((m) => m.tokensOut)),
    toolCalls: mean(withMetrics.map((m) => m.toolCalls)),
    costUsd: mean(withMetrics.map((m) => m.costUsd)),
    wallMs: mean(withMetrics.map((m) => m.wallMs)),
    totalCostUsd: sum(withMetrics.map((m) => m.costUsd)),
    totalWallMs: sum(withMetrics.map((m) => m.wallMs)),
    completedRuns: runs.filter((r) => r.metrics?.scientificCompleted).length,
    completedTasks: completedTasks.size,
  };
}

/** Group records by a key, in first-seen order of sorted input. */
export function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = out.get(k);
    if (list) list.push(it);
    else out.set(k, [it]);
  }
  return out;
}
