// Queries with a real deadline. A query to a workflow nobody serves waits on the server; racing it
// against a timer leaves the call (and its retries) running after the connection closes — the
// "Channel has been shut down" crash. Here the gRPC call itself carries the deadline, and a query is
// not even sent when no worker polls the workflow's task queue.
import type { WorkflowHandle } from '@temporalio/client';
import { hasLivePoller } from './pollers.js';

export type Unavailable = { unavailable: string };

/** `handle.query(name)` that gives up after `ms` (gRPC deadline), rejecting with a message that says why. */
export async function queryWithDeadline<T>(handle: WorkflowHandle, name: string, ms: number): Promise<T> {
  try {
    return await handle.client.connection.withDeadline(Date.now() + ms, () => handle.query<T>(name));
  } catch (err) {
    throw new Error(`no worker answered the ${name} query within ${ms / 1000} s (${(err as Error).message.split('\n')[0]}); the worker may be busy or restarting`);
  }
}

/** The query's answer, or why there is none (no worker polls `taskQueue`, or none answered in time). */
export async function liveQuery<T>(handle: WorkflowHandle, namespace: string, taskQueue: string, name: string, ms: number): Promise<T | Unavailable> {
  if (!(await hasLivePoller(handle.client, namespace, taskQueue, 'workflow'))) {
    return { unavailable: `no worker polls the task queue ${taskQueue}, so the ${name} query cannot be answered; start one with \`physvec worker\`` };
  }
  try {
    return await queryWithDeadline<T>(handle, name, ms);
  } catch (err) {
    return { unavailable: (err as Error).message };
  }
}
