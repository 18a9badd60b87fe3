// An attempt a worker fails on behalf of a dead or unreachable holder (WorkerGone, TaskLost) is
// retried at once — but a retry is a new task at the back of the queue: at load 40 the killed full
// run waited 45–58 s behind the stage's other runs for a slot (scripts/drill-load.ts). Before failing
// such an attempt we raise its activity's task priority (Temporal task queue priority: a lower key
// is dispatched first), so the retry is the next task any worker of the queue takes. The raise lasts
// for the activity's later attempts too: a run that was interrupted once has waited enough.
//
// Priority orders a queue but cannot make a slot free: at load 85 a recovery still took 55 s, the
// standby's two slots busy with live runs. So an attempt whose worker served the recovery twin of its
// queue (temporal-config/queues.ts recoveryQueueOf) is also moved there: every `physvec worker` of
// the simulation queue polls it with one slot of its own, kept for such retries (a worker runs at
// most one run over its slots while it recovers; CPU limits measure the script, not the wall). A
// retry the mover can start on a free regular slot of its own stays on the regular queue instead
// (workers/sandbox-slots.ts), and a mover sends one retry per pass there, the rest staying ahead on
// their queue: a mass recovery is not serialised through one slot.
//
// Among retries, a run of the whole script goes before a unit harness or an integration level
// (workers/retry-order.ts): its key is 1, theirs 2, both before the default 3 of runs not yet begun.
//
// Best effort: a server without the activity-options API, or an activity that ended meanwhile, just
// leaves the retry in order. Priority holds within a task queue partition; the dev server writes
// every queue to one partition for this reason (temporal-config/server.ts).
import type { ConnectionLike } from '@temporalio/client';
import type { RetryRank } from './retry-order.js';

/** Temporal's default priority key is 3 (of 1..5); retries of interrupted attempts go first. */
export const RETRY_PRIORITY_KEY = 1;
/** The key of the retry of a short run (a unit harness, an integration level): after whole-script runs' retries, before new runs. */
export const SHORT_RETRY_PRIORITY_KEY = 2;

/** An attempt of unknown rank (another activity, an attempt that never reached its worker) keeps the first place. */
export const retryPriorityKey = (rank: RetryRank | undefined): number => (rank === 0 || rank === 1 ? SHORT_RETRY_PRIORITY_KEY : RETRY_PRIORITY_KEY);

/**
 * `toQueue`: the queue to move the retry to — only one that workers of the attempt's own build poll
 * (its holder's recovery twin, written by the holder itself, or that twin's regular queue), never a
 * guess: a pinned run moved to a queue its build does not poll would wait for ever.
 */
export async function sendRetryAhead(connection: ConnectionLike, namespace: string, at: { workflowId: string; runId?: string; activityId: string }, identity: string, toQueue?: string, rank?: RetryRank): Promise<boolean> {
  try {
    await connection.workflowService.updateActivityOptions({
      namespace,
      execution: { workflowId: at.workflowId, runId: at.runId },
      id: at.activityId,
      activityOptions: { priority: { priorityKey: retryPriorityKey(rank) }, ...(toQueue ? { taskQueue: { name: toQueue } } : {}) },
      updateMask: { paths: ['priority', ...(toQueue ? ['task_queue.name'] : [])] },
      identity,
    });
    return true;
  } catch {
    return false;
  }
}
