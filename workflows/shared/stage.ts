// Stage/iteration/status bookkeeping shared by workflows: mirrored into search attributes so runs
// are filterable in the UI (`Stage="programming"`), and returned by each workflow's progress query.
import { upsertSearchAttributes } from '@temporalio/workflow';
import type { RunStatus, VerdictAttribute } from '../../schemas/verdict.js';
import { SA } from '../../temporal-config/search-attributes.js';

/** Where a run is (`Stage`, `Iteration`) and its status (`Verdict`: running, paused, then a verdict). */
export function markStage(stage: string, iteration = 0, status: RunStatus = 'running'): void {
  upsertSearchAttributes([
    { key: SA.Stage, value: stage },
    { key: SA.Iteration, value: iteration },
    { key: SA.Verdict, value: status },
  ]);
}

export function markStatus(status: VerdictAttribute): void {
  upsertSearchAttributes([{ key: SA.Verdict, value: status }]);
}
