// Stage/iteration/status bookkeeping shared by workflows: mirrored into search attributes so runs
// are filterable in the UI (`Stage="programming"`), and returned by each workflow's progress query.
import { upsertSearchAttributes } from '@temporalio/workflow';
import { SA } from '../../temporal-config/search-attributes.js';

export function markStage(stage: string, iteration = 0, status = 'running'): void {
  upsertSearchAttributes([
    { key: SA.Stage, value: stage },
    { key: SA.Iteration, value: iteration },
    { key: SA.Verdict, value: status },
  ]);
}

export function markStatus(status: string): void {
  upsertSearchAttributes([{ key: SA.Verdict, value: status }]);
}
