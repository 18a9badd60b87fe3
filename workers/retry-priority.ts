// An attempt a worker fails on behalf of a dead or unreachable holder (WorkerGone, TaskLost) is
// retried at once — but a retry is a new task at the back of the queue: at load 40 the killed full
// run waited 45–58 s behind the stage's other runs for a slot (scripts/drill-load.ts). Before failing
// such an attempt we raise its activity's task priority (Temporal task queue priority: a lower key
// is dispatched first), so the retry is the next task any worker of the queue takes. The raise lasts
// for the activity's later attempts too: a run that was interrupted once has waited enough.
//
// Best effort: a server without the activity-options API, or an activity that ended meanwhile, just
// leaves the retry in order. Priority holds within a task queue partition; the dev server writes
// every queue to one partition for this reason (temporal-config/server.ts).
import type { ConnectionLike } from '@temporalio/client';

/** Temporal's default priority key is 3 (of 1..5); retries of interrupted attempts go first. */
export const RETRY_PRIORITY_KEY = 1;

export async function raiseRetryPriority(connection: ConnectionLike, namespace: string, at: { workflowId: string; runId?: string; activityId: string }, identity: string): Promise<boolean> {
  try {
    await connection.workflowService.updateActivityOptions({
      namespace,
      execution: { workflowId: at.workflowId, runId: at.runId },
      id: at.activityId,
      activityOptions: { priority: { priorityKey: RETRY_PRIORITY_KEY } },
      updateMask: { paths: ['priority'] },
      identity,
    });
    return true;
  } catch {
    return false;
  }
}
