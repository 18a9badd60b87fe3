// Build the workers for one or both task queues. A dev ("all") process runs both in one process.
import { Worker, NativeConnection, type WorkerOptions, type LogLevel } from '@temporalio/worker';
import { workflowBundle } from './workflow-bundle.js';
import { taskQueues } from '../lib/temporal/task-queues.js';
import { recoveryQueueOf, type QueueName } from '../temporal-config/queues.js';
import { orchestrationActivities, simulationActivities } from './activities.js';
import { defaultSimulationSlots } from './slots.js';
import { HEARTBEAT_THROTTLE } from '../temporal-config/timeouts.js';
import { WorkerLogger } from './logger.js';
import { heartbeatTicker } from './heartbeat-ticker.js';
import { ATTEMPT_LINES_ENV, timedOutAliveReporter } from './timed-out-alive.js';
import { startStallLines } from './stall-lines.js';
import { RerunJournal, rerunJournalInterceptor } from './rerun-journal.js';
import { DRILL_DELAY_ENV, drillDelayInterceptor, drillDelays } from './drill-delay.js';
import { artifactStore } from '../lib/artifacts/store.js';
import { sweepStaleWorkDirsOnce } from '../runners/sandbox/workdir.js';
import { largeQueueSlots, largeSimulationActivities } from './large-queue.js';
import { deploymentOptions, promoteBuild, watchDrainage } from './versioning.js';
import { TELEMETRY_OFF, type TelemetrySettings } from './telemetry/settings.js';
import { installRuntimeWithTelemetry } from './telemetry/runtime.js';
import { flushTracing, tracingWorkerParts } from './telemetry/tracing.js';
import { AttemptRegistry, attemptRegistryInterceptor } from './attempt-registry.js';
import { DeadWorkerWatchdog } from './dead-worker-watchdog.js';
import { BegunAttempts, begunAttemptsInterceptor, UndeliveredAttemptSweeper, workerIdentity } from './undelivered-attempt-sweeper.js';
import { SandboxSlots } from './sandbox-slots.js';
import { temporalTarget } from '../lib/temporal/connection.js';

export type QueueSelection = QueueName | 'all';

export { WORKFLOWS_PATH, workflowBundle } from './workflow-bundle.js';

/** Graceful shutdown: in-flight activities get `shutdownGraceTime` to finish, then are cancelled (sandboxes killed, attempt fails retryably). */
export const SHUTDOWN = { shutdownGraceTime: '5s', shutdownForceTime: '30s' } as const;

/** Heartbeats reach the server every few seconds, whatever an activity's heartbeat timeout (see temporal-config/timeouts.ts). */
const HEARTBEATS = { maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE } as const;

let runtimeInstalled = false;
/** Where the worker's own lines go (the runtime's logger and the result journal): stderr unless installRuntime was given a printer. */
let printLine = (line: string): void => void process.stderr.write(`${line}\n`);
/**
 * `telemetry`: metrics and traces (`physvec worker --metrics/--traces`), off unless given; `print`:
 * where the worker's log lines go (default stderr; the outage drill counts them).
 */
export function installRuntime(opts: { telemetry?: TelemetrySettings; print?: (line: string) => void } = {}): void {
  const { telemetry = TELEMETRY_OFF, print } = opts;
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  if (print) printLine = print;
  if (process.env[ATTEMPT_LINES_ENV] === '1') startStallLines((line) => printLine(line));
  const level = (process.env.PHYSVEC_LOG_LEVEL ?? 'WARN').toUpperCase() as LogLevel;
  // Core's own logs are forwarded to this logger (stderr): left to the default "console" mode they go
  // to stdout, which breaks `--json` output of verbs that run workers in their process.
  installRuntimeWithTelemetry({
    shutdownSignals: ['SIGINT', 'SIGTERM'],
    logger: new WorkerLogger(level, printLine, Date.now, print !== undefined),
    telemetryOptions: { logging: { forward: {}, filter: { core: level, other: 'ERROR' } } },
  }, telemetry);
}


let journal: RerunJournal | undefined;
let registry: AttemptRegistry | undefined;
const ownRegistry = () => (registry ??= new AttemptRegistry());
const begun = new BegunAttempts();
/** Slots on the simulation queue's recovery twin, beyond the regular ones (retries of dead workers' runs only). */
export const RECOVERY_SLOTS = 2;
/** Sandbox queues (and their recovery twins) whose recovery twin this process polls → that twin. */
const recoveryServed = new Map<string, string>();
/** This process's sandbox slots on the simulation queue and its recovery twin (workers/sandbox-slots.ts). */
const sandboxSlots = new SandboxSlots();
/**
 * Activity interceptors of every production worker: a line when the server times out an attempt of a
 * live worker, heartbeats for activities without their own, the attempts this process holds on disk
 * (a live worker of the host fails them at once if this process dies: workers/dead-worker-watchdog.ts),
 * and the journal that stores finished results (a later attempt returns them).
 */
export function activityInterceptors(namespace: string): NonNullable<NonNullable<WorkerOptions['interceptors']>['activity']> {
  journal ??= new RerunJournal(undefined, (line) => printLine(line));
  const delays = drillDelays(process.env[DRILL_DELAY_ENV]);
  const server = { address: temporalTarget().address, namespace };
  return [begunAttemptsInterceptor(begun), sandboxSlots.interceptor(), timedOutAliveReporter((line) => printLine(line)), attemptRegistryInterceptor(ownRegistry(), server, (q) => recoveryServed.get(q)), heartbeatTicker, rerunJournalInterceptor(journal, artifactStore()), ...(delays.size ? [drillDelayInterceptor(delays)] : [])];
}

const watchdogs = new Map<string, DeadWorkerWatchdog>();
/**
 * One watchdog and one sweeper of undelivered attempts per process and namespace; the watchdog's first
 * pass (what dead workers of this host held) is done before the workers poll.
 */
async function watchAttempts(namespace: string): Promise<void> {
  const target = temporalTarget();
  const key = `${target.address}/${namespace}`;
  if (watchdogs.has(key)) return;
  ownRegistry().announce();
  const sweeper = new UndeliveredAttemptSweeper({ ...target, namespace }, begun, (line) => printLine(line), undefined, (q) => recoveryServed.get(q), () => sandboxSlots.router());
  const watchdog = new DeadWorkerWatchdog({ ...target, namespace }, (line) => printLine(line), undefined, (dead) => sweeper.adopt(dead), () => sandboxSlots.router());
  watchdogs.set(key, watchdog);
  await watchdog.start();
  sweeper.start();
}

/**
 * The workers of `queue`, versioned by this build (workers/versioning.ts). Unless `promote` is false,
 * the build becomes its deployment's current version as soon as a worker polls (in the background:
 * callers run the workers their own way), so new runs go to it.
 */
export async function createWorkers(
  connection: NativeConnection,
  namespace: string,
  queue: QueueSelection,
  overrides: Partial<WorkerOptions> = {},
  /**
   * `recoverySlot`: also poll the simulation queue's recovery twin with one slot (workers/sandbox-slots.ts).
   * `physvec worker` processes do; workers a process runs for itself (a test, `reproduce`, the demo)
   * keep their former shape (one worker per queue), and their retries only get the priority.
   */
  opts: { promote?: boolean; recoverySlot?: boolean } = {},
): Promise<Worker[]> {
  const workers: Worker[] = [];
  const tracing = tracingWorkerParts();
  const interceptors = { activity: [...tracing.activity, ...activityInterceptors(namespace)] };
  const servesSimulation = queue === 'simulation' || queue === 'all';
  // Known before the watchdog's first pass: a restarted worker keeps its dead predecessor's retries
  // on its own free regular slots (workers/sandbox-slots.ts) before it polls.
  if (servesSimulation && opts.recoverySlot === true) {
    const recovery = recoveryQueueOf(taskQueues().simulation);
    recoveryServed.set(taskQueues().simulation, recovery).set(recovery, recovery);
    sandboxSlots.serve(taskQueues().simulation, recovery, defaultSimulationSlots());
  }
  await watchAttempts(namespace);
  const versioning = deploymentOptions();
  const deployment = versioning ? { workerDeploymentOptions: versioning } : {};
  if (queue === 'orchestration' || queue === 'all') {
    workers.push(
      await Worker.create({
        connection,
        namespace,
        taskQueue: taskQueues().orchestration,
        workflowBundle: overrides.workflowBundle ?? (await workflowBundle()),
        activities: await orchestrationActivities(),
        identity: workerIdentity(), // what the undelivered-attempt sweeper looks for
        interceptors,
        sinks: tracing.sinks,
        ...HEARTBEATS,
        ...SHUTDOWN,
        ...deployment,
        ...overrides,
      }),
    );
  }
  // A simulation worker takes no workflow tasks, so the bundle options are dropped.
  const { workflowBundle: _b, workflowsPath: _p, ...rest } = overrides;
  const sandboxWorker = (taskQueue: string, activities: WorkerOptions['activities'], slots: number) =>
    Worker.create({
      connection,
      namespace,
      taskQueue,
      activities,
      identity: workerIdentity(),
      interceptors,
      ...HEARTBEATS,
      maxConcurrentActivityTaskExecutions: slots,
      ...SHUTDOWN,
      ...deployment,
      ...rest,
    });
  // A sandbox queue's workers, and for the simulation queue RECOVERY_SLOTS slots on its recovery twin:
  // a retry of a run whose worker died may be moved there (workers/sandbox-slots.ts), so it starts even
  // while every regular slot is busy. Two, not one: each mover's pass sends one retry there, and at
  // hog 40 the full run's retry of a second kill waited 42.5 s for the slot the first kill's retry
  // (a unit harness, slow on the loaded host) still held (drill-load). Not on the large queue: a slot
  // there is a share of the host's memory sized for full-size runs, so its retries only go first
  // (priority) among what waits.
  const simulationWorkers = async (taskQueue: string, activities: WorkerOptions['activities'], slots: number, recoverySlot: boolean) => {
    // Work dirs a killed worker left behind go now, not at the first run (runners/sandbox/workdir.ts).
    sweepStaleWorkDirsOnce();
    const made = [await sandboxWorker(taskQueue, activities, slots)];
    if (recoverySlot) made.push(await sandboxWorker(recoveryQueueOf(taskQueue), activities, RECOVERY_SLOTS));
    return made;
  };
  if (servesSimulation) {
    workers.push(...(await simulationWorkers(taskQueues().simulation, simulationActivities(), defaultSimulationSlots(), opts.recoverySlot === true)));
  }
  if (queue === 'large') {
    workers.push(...(await simulationWorkers(taskQueues().large, largeSimulationActivities(), largeQueueSlots(), false)));
  }
  if (versioning && opts.promote !== false && workers.length) void promoteBuild(connection, namespace);
  return workers;
}

/** Run until SIGINT/SIGTERM (or until all workers stop); says when this build has drained. */
export async function runWorkers(
  connection: NativeConnection,
  namespace: string,
  queue: QueueSelection,
  opts: { onReady?: () => void; promote?: boolean; say?: (line: string) => void } = {},
): Promise<void> {
  installRuntime(); // a no-op when the CLI installed it (with its telemetry) already
  const workers = await createWorkers(connection, namespace, queue, {}, { promote: opts.promote, recoverySlot: true });
  opts.onReady?.();
  const stop = new AbortController();
  const watching = watchDrainage(connection, namespace, opts.say ?? ((l) => console.error(l)), stop.signal);
  try {
    await Promise.all(workers.map((w) => w.run()));
  } finally {
    stop.abort();
    await watching.catch(() => undefined);
  }
  await flushTracing();
}
