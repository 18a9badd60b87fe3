// Client commands that start workflows need someone to run them. When a worker already polls a
// queue (e.g. `physvec worker` on this or another host) we use it; when none does, this process runs
// the workers for the missing queues itself, as `physvec demo` does, until the work is done.
import type { Client } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { connectWorker } from '../../lib/temporal/connection.js';
import { createWorkers, installRuntime, type QueueSelection } from '../../workers/create-workers.js';
import { TASK_QUEUES } from '../../temporal-config/queues.js';

/** A poller seen within this window is alive (long polls last about a minute). */
const LIVE_POLLER_MS = 90_000;
const TASK_QUEUE_TYPE = { workflow: 1, activity: 2 } as const;

export type WorkerMode = 'auto' | 'in-process' | 'external';

export async function hasLivePoller(client: Client, namespace: string, queue: string, type: keyof typeof TASK_QUEUE_TYPE): Promise<boolean> {
  const res = await client.workflowService.describeTaskQueue({ namespace, taskQueue: { name: queue }, taskQueueType: TASK_QUEUE_TYPE[type] });
  const now = Date.now();
  return (res.pollers ?? []).some((p) => {
    const seconds = Number(p.lastAccessTime?.seconds?.toString() ?? 0);
    return now - seconds * 1000 < LIVE_POLLER_MS;
  });
}

/** The queues nobody serves right now: orchestration needs workflow and activity pollers, simulation activity pollers. */
export async function queuesToServe(client: Client, namespace: string): Promise<QueueSelection | undefined> {
  const [wf, light, sim] = await Promise.all([
    hasLivePoller(client, namespace, TASK_QUEUES.orchestration, 'workflow'),
    hasLivePoller(client, namespace, TASK_QUEUES.orchestration, 'activity'),
    hasLivePoller(client, namespace, TASK_QUEUES.simulation, 'activity'),
  ]);
  const orchestration = !(wf && light);
  if (orchestration && !sim) return 'all';
  if (orchestration) return 'orchestration';
  if (!sim) return 'simulation';
  return undefined;
}

/**
 * `--workers external`: the work waits for workers started elsewhere. After `afterMs`, say once which
 * queues nobody polls (and how to start a worker) — the run keeps waiting, as Temporal does.
 */
export function sayWhenNobodyPolls(client: Client, namespace: string, log: (line: string) => void, afterMs = 5000): () => void {
  let stopped = false;
  const timer = setTimeout(() => {
    void queuesToServe(client, namespace)
      .then((missing) => {
        if (stopped || !missing) return;
        const which = missing === 'all' ? `${TASK_QUEUES.orchestration} and ${TASK_QUEUES.simulation}` : TASK_QUEUES[missing];
        log(`no worker is polling ${which} after ${afterMs / 1000} s: the run waits until one does — start \`physvec worker --queue ${missing}\` (same TEMPORAL_ADDRESS and provider API keys), or rerun without --workers external`);
      })
      .catch(() => { /* the server went away: the main call reports it */ });
  }, afterMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function runAll<T>(workers: Worker[], fn: () => Promise<T>): Promise<T> {
  const [first, ...rest] = workers;
  return first ? first.runUntil(runAll(rest, fn)) : fn();
}

/** Runs `fn` with workers in this process for the queues that need them (all of them with `in-process`). */
export async function withWorkersIfNeeded<T>(
  client: Client,
  namespace: string,
  mode: WorkerMode,
  fn: () => Promise<T>,
  log: (line: string) => void = () => {},
): Promise<T> {
  const queues = mode === 'external' ? undefined : mode === 'in-process' ? 'all' : await queuesToServe(client, namespace);
  if (!queues) return fn();
  log(`no worker polls ${queues === 'all' ? 'the orchestration and simulation queues' : `the ${queues} queue`}: running ${queues === 'all' ? 'both workers' : 'that worker'} in this process`);
  try {
    installRuntime();
  } catch {
    /* a runtime is already installed in this process (tests) */
  }
  const { connection } = await connectWorker();
  try {
    const workers = await createWorkers(connection, namespace, queues);
    return await runAll(workers, fn);
  } finally {
    await connection.close();
  }
}
