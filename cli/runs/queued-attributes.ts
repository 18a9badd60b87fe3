// The search attributes a run starts with (queued, running), so `physvec runs` and the Temporal UI
// can filter a run before its workflow sets anything itself. One place for every verb that starts one.
import type { SearchAttributePair } from '@temporalio/common';
import type { RunStatus } from '../../schemas/verdict.js';
import { SA } from '../../temporal-config/search-attributes.js';

export function queuedRunAttributes(run: { taskId: string; topic: string; framework: string; model?: string }): SearchAttributePair[] {
  return [
    { key: SA.TaskId, value: run.taskId },
    { key: SA.Topic, value: run.topic },
    { key: SA.Framework, value: run.framework },
    ...(run.model === undefined ? [] : [{ key: SA.Model, value: run.model }]),
    { key: SA.Stage, value: 'queued' },
    { key: SA.Verdict, value: 'running' satisfies RunStatus },
  ];
}
