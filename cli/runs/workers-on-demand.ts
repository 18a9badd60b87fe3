// Client commands that start workflows need someone to run them. When a worker already polls a
// queue (e.g. `physvec worker` on this or another host) we use it; when none does, this process runs
// the workers for the missing queues itself, as `physvec demo` does, until the work is done.
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { connectWorker } from '../../lib/temporal/connection.js';
import type { QueueSelection } from '../../workers/create-workers.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { hasLivePoller } from './pollers.js';


export type WorkerMode = 'auto' | 'in-process' | 'external';

let servingHere = false;
/** Whether this process runs workers for the run it follows (then the run stalls when it exits). */
export function workersRunHere(): boolean {
  return servingHere;
}

/** The queues nobody serves right now: orchestration needs workflow and activity pollers, simulation activity pollers. */
export async function queuesToServe(client: Client, namespace: string): Promise<QueueSelection | undefined> {
  const [wf, light, sim] = await Promise.all([
    hasLivePoller(client, namespace, taskQueues().orchestration, 'workflow'),
    hasLivePoller(client, namespace, taskQueues().orchestration, 'activity'),
    hasLivePoller(client, namespace, taskQueues().simulation, 'activity'),
  ]);
  const orchestration = !(wf && light);
  if (orchestration && !sim) return 'all';
  if (orchestration) return 'orchestration';
  if (!sim) return 'simulation';
  return undefined;
}

/**
 * `--workers external`: the work waits for workers started elsewhere. When no worker has taken the
 * workflow after `afterMs`, say so once (and how to start one) — the run keeps waiting, as Temporal does.
 */
export function sayWhenNobodyPolls(handle: WorkflowHandle, log: (line: string) => void, afterMs = 5000): () => void {
  let stopped = false;
  void pickedUp(handle, afterMs)
    .then((taken) => {
      if (stopped || taken) return;
      log(`no worker is polling ${taskQueues().orchestration} (none took the workflow within ${afterMs / 1000} s): the run waits until one does — start \`physvec worker\` (same TEMPORAL_ADDRESS, and the provider API keys in its environment), or rerun without --workers external`);
    })
    .catch(() => { /* the server went away: the main call reports it */ });
  return () => {
    stopped = true;
  };
}

function runAll<T>(workers: Worker[], fn: () => Promise<T>): Promise<T> {
  const [first, ...rest] = workers;
  return first ? first.runUntil(runAll(rest, fn)) : fn();
}

/** How long a just-started workflow may wait for a worker that looks alive before this process serves it. */
const PICKUP_MS = 8000;

/**
 * Whether a worker takes the workflow's pending workflow task within `withinMs` (a just-started
 * workflow's first one, or the one a reattached campaign waits on). A worker that exited less than a
 * minute ago still shows as a poller, so "someone polls" alone is not proof that someone runs the work.
 */
async function pickedUp(handle: WorkflowHandle, withinMs: number): Promise<boolean> {
  const SCHEDULED = 1; // PENDING_WORKFLOW_TASK_STATE_SCHEDULED
  const deadline = Date.now() + withinMs;
  for (;;) {
    const d = await handle.describe();
    if (d.status.name !== 'RUNNING' || Number(d.raw.pendingWorkflowTask?.state ?? 0) !== SCHEDULED) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Runs `fn` with workers in this process for the queues that need them (all of them with `in-process`).
 * `started`: the workflow `fn` follows; when no worker takes its pending workflow task although
 * pollers are listed (they may be gone), both workers run here after all.
 */
export async function withWorkersIfNeeded<T>(
  client: Client,
  namespace: string,
  mode: WorkerMode,
  fn: () => Promise<T>,
  log: (line: string) => void = () => {},
  started?: WorkflowHandle,
): Promise<T> {
  let queues = mode === 'external' ? undefined : mode === 'in-process' ? 'all' : await queuesToServe(client, namespace);
  let why = `no worker polls ${queues === 'all' ? 'the orchestration and simulation queues' : `the ${queues} queue`}`;
  if (!queues && mode === 'auto' && started && !(await pickedUp(started, PICKUP_MS))) {
    queues = 'all';
    why = `no worker took the workflow within ${PICKUP_MS / 1000} s (the pollers listed have gone)`;
  }
  if (!queues) return fn();
  log(`${why}: running ${queues === 'all' ? 'both workers' : 'that worker'} in this process`);
  // The verb reports a failure itself, as one line; the workers' WARN logs ("Activity failed",
  // "Workflow failed") would repeat it as stack traces. PHYSVEC_LOG_LEVEL=WARN shows them.
  process.env.PHYSVEC_LOG_LEVEL ??= 'ERROR';
  // Loaded only now: the worker code (workflow bundler, every activity) is most of the CLI's weight.
  const { createWorkers, installRuntime } = await import('../../workers/create-workers.js');
  const { describePriority, raiseOwnPriority } = await import('../../lib/process-priority.js');
  const priority = raiseOwnPriority();
  if (priority && !priority.raised) log(`workers: ${describePriority(priority)}`);
  try {
    installRuntime();
  } catch {
    /* a runtime is already installed in this process (tests) */
  }
  const { connection } = await connectWorker();
  servingHere = true;
  try {
    const workers = await createWorkers(connection, namespace, queues);
    return await runAll(workers, fn);
  } finally {
    servingHere = false;
    await connection.close();
  }
}
