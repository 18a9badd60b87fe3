// Build the workers for one or both task queues. A dev ("all") process runs both in one process.
import path from 'node:path';
import { Worker, NativeConnection, Runtime, DefaultLogger, bundleWorkflowCode, type WorkerOptions, type LogLevel } from '@temporalio/worker';
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
  const level = (process.env.PHYSVEC_LOG_LEVEL ?? 'WARN').toUpperCase() as LogLevel;
  // Core's own logs are forwarded to this logger (stderr): left to the default "console" mode they go
  // to stdout, which breaks `--json` output of verbs that run workers in their process.
  Runtime.install({
    shutdownSignals: ['SIGINT', 'SIGTERM'],
    logger: new DefaultLogger(level),
    telemetryOptions: { logging: { forward: {}, filter: { core: level, other: 'ERROR' } } },
  });
}

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };
let bundle: ReturnType<typeof bundleWorkflowCode> | undefined;
/** The workflow bundle, built once per process (webpack's chatter kept out of the terminal). */
export function workflowBundle(): ReturnType<typeof bundleWorkflowCode> {
  bundle ??= bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quiet });
  return bundle;
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
        workflowBundle: overrides.workflowBundle ?? (await workflowBundle()),
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
