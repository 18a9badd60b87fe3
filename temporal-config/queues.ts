// Task-queue names. Pure functions of one prefix: safe to import from workflow code.
//
// Queues are never constants baked into workflow code: a workflow sends its activities to the
// family of the queue it runs on (queuesOf(workflowInfo().taskQueue), see workflows/shared/queues.ts),
// and clients and workers take the family of their prefix (`PHYSVEC_QUEUE_PREFIX`, default
// "physvec"). So two deployments — or two test files — share one Temporal server without taking
// each other's tasks.

export interface TaskQueues {
  /** Workflows, LLM calls and light activities (artifact I/O, reports). */
  orchestration: string;
  /** Sandboxed simulation runs; scale out by starting more simulation workers on other hosts. */
  simulation: string;
  /** Full-size simulation runs (`reproduce --size full`), served by bigger hosts: `physvec worker --queue large`. */
  large: string;
}
export type QueueName = keyof TaskQueues;

export const DEFAULT_QUEUE_PREFIX = 'physvec';
const ORCHESTRATION_SUFFIX = '-orchestration';

/** The queues of one prefix: `<prefix>-orchestration`, `<prefix>-simulation`, `<prefix>-simulation-large`. */
export function queueFamily(prefix: string = DEFAULT_QUEUE_PREFIX): TaskQueues {
  return {
    orchestration: `${prefix}${ORCHESTRATION_SUFFIX}`,
    simulation: `${prefix}-simulation`,
    large: `${prefix}-simulation-large`,
  };
}

/**
 * The family a workflow running on `orchestrationQueue` belongs to. A queue that does not end in
 * "-orchestration" (a test's own queue) is its own orchestration queue, with siblings named after it.
 */
export function queuesOf(orchestrationQueue: string): TaskQueues {
  if (orchestrationQueue.endsWith(ORCHESTRATION_SUFFIX)) return queueFamily(orchestrationQueue.slice(0, -ORCHESTRATION_SUFFIX.length));
  return { orchestration: orchestrationQueue, simulation: `${orchestrationQueue}-simulation`, large: `${orchestrationQueue}-simulation-large` };
}

const RECOVERY_SUFFIX = '-recovery';

/**
 * The twin of a sandbox queue that retries of interrupted runs are moved to (workers/retry-priority.ts):
 * every `physvec worker` of the queue polls it with one slot of its own, so such a retry starts even
 * while every regular slot is busy. A recovery queue is its own twin.
 */
export function recoveryQueueOf(queue: string): string {
  return queue.endsWith(RECOVERY_SUFFIX) ? queue : `${queue}${RECOVERY_SUFFIX}`;
}

/** The regular queue whose twin `recovery` is (a regular queue is its own). */
export function regularQueueOf(recovery: string): string {
  return recovery.endsWith(RECOVERY_SUFFIX) ? recovery.slice(0, -RECOVERY_SUFFIX.length) : recovery;
}
