// Who polls a task queue, from the server's task-queue description. A poller is listed for about a
// minute after its last poll, so a listed poller may already be gone (see workers-on-demand.ts).
import type { Client } from '@temporalio/client';

/** A poller seen within this window is alive (long polls last about a minute). */
const LIVE_POLLER_MS = 90_000;
const TASK_QUEUE_TYPE = { workflow: 1, activity: 2 } as const;

export async function hasLivePoller(client: Pick<Client, 'workflowService'>, namespace: string, queue: string, type: keyof typeof TASK_QUEUE_TYPE): Promise<boolean> {
  const res = await client.workflowService.describeTaskQueue({ namespace, taskQueue: { name: queue }, taskQueueType: TASK_QUEUE_TYPE[type] });
  const now = Date.now();
  return (res.pollers ?? []).some((p) => {
    const seconds = Number(p.lastAccessTime?.seconds?.toString() ?? 0);
    return now - seconds * 1000 < LIVE_POLLER_MS;
  });
}

