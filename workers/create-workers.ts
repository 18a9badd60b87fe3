// Build the workers for one or both task queues. A dev ("all") process runs both in one process.
import path from 'node:path';
import { Worker, NativeConnection, Runtime, type WorkerOptions } from '@temporalio/worker';
import { repoRoot } from '../lib/paths.js';
import { TASK_QUEUES, type QueueName } from '../temporal-config/queues.js';
import { orchestrationActivities, simulationActivities } from './activities.js';
import { defaultSimulationSlots } from './slots.js';

export type QueueSelection = QueueName | 'all';

export const WORKFLOWS_PATH = path.join(repoRoot, 'workflows', 'index.ts');

/** Graceful shutdown: in-flight activities get `shutdownGraceTime` to finish, then are cancelled (sandboxes killed, attempt fails retryably). */
export const SHUTDOWN = { shutdownGraceTime: '5s', shutdownForceTime: '30s' } as const;

let runtimeInstalled = false;
export function installRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({ shutdownSignals: ['SIGINT', 'SIGTERM'] });
}

export async function createWorkers(
  connection: NativeConnection,
  namespace: string,
  queue: QueueSelection,
  overrides: Partial<WorkerOptions> = {},
): Promise<Worker[]> {
  const workers: Worker[] = [];
  if (queue === 'orchestration' || queue === 'all') {
    workers.push(
      await Worker.create({
        connection,
        namespace,
        taskQueue: TASK_QUEUES.orchestration,
        workflowsPath: overrides.workflowBundle ? undefined : WORKFLOWS_PATH,
        activities: orchestrationActivities(),
        ...SHUTDOWN,
        ...overrides,
      }),
    );
  }
  if (queue === 'simulation' || queue === 'all') {
    const { workflowBundle: _b, workflowsPath: _p, ...rest } = overrides;
    workers.push(
      await Worker.create({
        connection,
        namespace,
        taskQueue: TASK_QUEUES.simulation,
        activities: simulationActivities(),
        maxConcurrentActivityTaskExecutions: defaultSimulationSlots(),
        ...SHUTDOWN,
        ...rest,
      }),
    );
  }
  return workers;
}

/** Run until SIGINT/SIGTERM (or until all workers stop). */
export async function runWorkers(connection: NativeConnection, namespace: string, queue: QueueSelection, onReady?: () => void): Promise<void> {
  installRuntime();
  const workers = await createWorkers(connection, namespace, queue);
  onReady?.();
  await Promise.all(workers.map((w) => w.run()));
}
