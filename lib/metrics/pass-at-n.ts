// Inference-time scaling (Fig. 6c) and completed tasks (Fig. 7), per (model, framework).
import type { RunRecord } from '../../schemas/campaign.js';
import type { PassCriterion } from './types.js';
import { happened } from './groups.js';

/** A pass per the campaign's criterion: the script runs (executable) or its results are physically valid. */
export function isPass(r: RunRecord, criterion: PassCriterion): boolean {
  if (!happened(r) || !r.metrics) return false;
  return criterion === 'scientific' ? r.metrics.scientificCompleted : r.metrics.executable;
}

/**
 * Entry N-1 = fraction of the tasks that pass at least once among trials 1..N, for N = 1..max trial.
 * The denominator is every task planned for the pair (skipped trials included: they were skipped
 * because an earlier trial passed, which already counts).
 */
export function passRateByTrials(records: RunRecord[], criterion: PassCriterion): number[] {
  const tasks = new Set(records.map((r) => r.taskId));
  if (tasks.size === 0) return [];
  const maxTrial = Math.max(...records.map((r) => r.trial));
  const firstPass = new Map<string, number>();
  for (const r of records) {
    if (!isPass(r, criterion)) continue;
    firstPass.set(r.taskId, Math.min(firstPass.get(r.taskId) ?? Infinity, r.trial));
  }
  return Array.from({ length: maxTrial }, (_, i) => [...firstPass.values()].filter((t) => t <= i + 1).length / tasks.size);
}

/** Distinct tasks with a scientifically completed run, and Fig. 7b's cumulative count by Scientific iteration. */
export function completedTasks(records: RunRecord[]): { tasks: number; completed: number; byScientificIteration: number[] } {
  const tasks = new Set(records.map((r) => r.taskId));
  const done = records.filter((r) => happened(r) && r.metrics?.scientificCompleted);
  const firstIter = new Map<string, number>();
  for (const r of done) {
    const it = r.metrics!.scientificIteration;
    if (it != null) firstIter.set(r.taskId, Math.min(firstIter.get(r.taskId) ?? Infinity, it));
  }
  const maxIter = firstIter.size ? Math.max(...firstIter.values()) : 0;
  return {
    tasks: tasks.size,
    completed: new Set(done.map((r) => r.taskId)).size,
    byScientificIteration: Array.from({ length: maxIter }, (_, i) => [...firstIter.values()].filter((k) => k <= i + 1).length),
  };
}
