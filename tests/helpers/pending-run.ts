// The one pending sandbox run of a workflow, as the platform tests read it from `describe`.
import type { WorkflowHandle } from '@temporalio/client';

export const STARTED = 2; // temporal.api.enums.v1.PendingActivityState
export const SCHEDULED = 1;

export interface PendingRun {
  attempt: number;
  state: number;
  started: boolean;
  worker: string;
  details: string;
  failureType: string;
  failure: string;
  priorityKey: number;
  /** The queue its next attempt is dispatched on. */
  taskQueue: string;
}

export async function pendingRun(handle: WorkflowHandle, activityType = 'runScript'): Promise<PendingRun | undefined> {
  const p = (await handle.describe()).raw.pendingActivities?.find((a) => a.activityType?.name === activityType);
  if (!p) return undefined;
  return {
    attempt: p.attempt ?? 1,
    state: Number(p.state),
    started: Number(p.state) === STARTED,
    worker: p.lastWorkerIdentity ?? '',
    details: Buffer.from(p.heartbeatDetails?.payloads?.[0]?.data ?? []).toString(),
    failureType: p.lastFailure?.applicationFailureInfo?.type ?? '',
    failure: p.lastFailure?.message ?? '',
    priorityKey: p.priority?.priorityKey ?? 0,
    taskQueue: p.activityOptions?.taskQueue?.name ?? '',
  };
}
