// Attempts the server handed to this worker that never reached it. At load 85 on 2 cores the server
// recorded activity attempts as started by a worker's poll whose response the worker never got (no
// code of any worker began them: scripts/drill-load.ts, "lost in delivery"); each then sat until its
// 60 s heartbeat timeout while the worker that "had" it was alive and idle. Only the worker named as
// the holder can tell such an attempt from one it runs, so each worker process looks, every
// SWEEP_EVERY_MS, at the started attempts the server attributes to its own identity: one that this
// process never began, that has not heartbeat since it started and that started more than
// GRACE_MS ago is failed by id as retryable `TaskLost` (with a line saying so), so the retry comes
// 20–30 s after the loss instead of at the heartbeat timeout, and is not counted against the script.
// A worker killed with a poll out leaves the same behind (the server answers the dead poll before it
// notices): the live worker whose watchdog buried it answers for its identity for a few minutes.
//
// Safe against failing a live attempt: an attempt this process began is remembered (for
// REMEMBER_MS, well past any response it still has to send), one that heartbeat is held by someone,
// and none is touched after HEARTBEAT_TIMEOUT minus a margin, when the server may already have
// started its next attempt (failing by id would then hit that one).
import os from 'node:os';
import { ActivityNotFoundError, AsyncCompletionClient, Client, Connection } from '@temporalio/client';
import { infrastructureRetry } from '../lib/temporal/infrastructure-retry.js';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { optionalTsToMs, tsToMs } from '@temporalio/common/lib/time.js';
import type { WatchdogTarget } from './dead-worker-watchdog.js';
import { HEARTBEAT_TIMEOUT_MS } from '../temporal-config/timeouts.js';
import { sendRetryAhead } from './retry-priority.js';
import { routerWithoutSlots, type RetryRouter } from './sandbox-slots.js';

export const TASK_LOST = 'TaskLost';
export const SWEEP_EVERY_MS = 10_000;
/** A delivered attempt is begun (and remembered) within seconds even on a starved host. */
export const GRACE_MS = 20_000;
const MARGIN_MS = 10_000;
const REMEMBER_MS = 10 * 60_000;
/** How long a dead worker's identity is answered for: its polls are long gone by then. */
const ADOPT_MS = 3 * 60_000;
const DESCRIBE_CONCURRENCY = 4;
/** The line printed for each attempt failed as lost (scripts/drill-load.ts counts them). */
export const TASK_LOST_LINE = /was handed to (?:this worker|the dead worker \S+) by the server but never reached it: failed it so it is retried now/;
const STARTED = 2; // temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED

/** The identity create-workers gives every worker of this process (the SDK's default form). */
export const workerIdentity = (): string => `${process.pid}@${os.hostname()}`;

const key = (runId: string, activityId: string, attempt: number) => `${runId}/${activityId}#${attempt}`;

/** The attempts this process began, kept for REMEMBER_MS after they began. */
export class BegunAttempts {
  private readonly begun = new Map<string, number>();
  note(runId: string, activityId: string, attempt: number, now = Date.now()): void {
    this.begun.set(key(runId, activityId, attempt), now);
    for (const [k, at] of this.begun) if (now - at > REMEMBER_MS) this.begun.delete(k);
  }
  has(runId: string, activityId: string, attempt: number): boolean {
    return this.begun.has(key(runId, activityId, attempt));
  }
}

/** Notes every attempt this worker begins, before anything else of it runs. */
export function begunAttemptsInterceptor(begun: BegunAttempts): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      execute(input, next) {
        const i = ctx.info;
        begun.note(i.workflowExecution?.runId ?? '', i.activityId, i.attempt);
        return next(input);
      },
    },
  });
}

export interface PendingStarted {
  workflowId: string;
  runId: string;
  activityId: string;
  activityType: string;
  attempt: number;
  startedAt: number;
  lastHeartbeatAt: number | undefined;
  worker: string;
  /** The queue its next attempt goes to (the server's current activity options). */
  taskQueue: string;
}

/**
 * Which of the started attempts attributed to `identity` — or to a dead worker of this host whose
 * polls this process answers for (`adopted`) — were lost on their way to it.
 */
export function lostAttempts(pending: PendingStarted[], identity: string, begun: BegunAttempts, now = Date.now(), adopted: ReadonlySet<string> = new Set()): PendingStarted[] {
  const latest = HEARTBEAT_TIMEOUT_MS - MARGIN_MS;
  return pending.filter(
    (p) =>
      ((p.worker === identity && !begun.has(p.runId, p.activityId, p.attempt)) || adopted.has(p.worker)) &&
      (p.lastHeartbeatAt === undefined || p.lastHeartbeatAt < p.startedAt) &&
      now - p.startedAt >= GRACE_MS &&
      now - p.startedAt <= latest,
  );
}

export class UndeliveredAttemptSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private readonly adopted = new Map<string, number>();

  constructor(
    private readonly target: WatchdogTarget,
    private readonly begun: BegunAttempts,
    private readonly say: (line: string) => void,
    readonly identity = workerIdentity(),
    /** The recovery twin this process polls for a queue, if any (only its own lost attempts are moved there: a dead worker's build is not known). */
    private readonly recoveryQueueFor: (taskQueue: string) => string | undefined = () => undefined,
    /** Where the retries of one pass wait (workers/sandbox-slots.ts). */
    private readonly newRouter: () => RetryRouter = routerWithoutSlots,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.pass(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  /**
   * Answer for a dead worker of this host (its dir removed by this process's watchdog, so by one
   * process only): a poll it had out when it died can still be answered by a server that has not
   * noticed, and what it started then reaches no one. Kept for ADOPT_MS.
   */
  adopt(identity: string): void {
    const now = Date.now();
    this.adopted.set(identity, now);
    for (const [id, at] of this.adopted) if (now - at > ADOPT_MS) this.adopted.delete(id);
  }

  /** One sweep; resolves to how many attempts it failed. Sweeps never overlap; an unreachable server is tried again next time. */
  pass(): Promise<number> {
    this.running ??= this.sweep()
      .catch(() => 0)
      .finally(() => (this.running = undefined));
    return this.running;
  }

  // A connection per sweep, closed after it: nothing of the sweeper outlives a pass, so it never keeps
  // a process (the demo, a test, `reproduce` with its own workers) from exiting.
  private async sweep(): Promise<number> {
    const connection = await Connection.connect({ connectTimeout: 5_000, ...this.target.connectionOptions } as Parameters<typeof Connection.connect>[0]);
    try {
      const client = new Client({ connection, namespace: this.target.namespace });
      const completion = new AsyncCompletionClient({ connection, namespace: this.target.namespace });
      const runs: { workflowId: string; runId: string }[] = [];
      for await (const wf of client.workflow.list({ query: 'ExecutionStatus="Running"' })) runs.push({ workflowId: wf.workflowId, runId: wf.runId });
      let failed = 0;
      const route = this.newRouter();
      for (let i = 0; i < runs.length; i += DESCRIBE_CONCURRENCY) {
        const batch = await Promise.all(runs.slice(i, i + DESCRIBE_CONCURRENCY).map((r) => this.startedOf(client, r).catch(() => [])));
        for (const lost of lostAttempts(batch.flat(), this.identity, this.begun, Date.now(), new Set(this.adopted.keys()))) failed += await this.failLost(completion, lost, route);
      }
      return failed;
    } finally {
      await connection.close().catch(() => undefined);
    }
  }

  private async startedOf(client: Client, run: { workflowId: string; runId: string }): Promise<PendingStarted[]> {
    const raw = (await client.workflow.getHandle(run.workflowId, run.runId).describe()).raw;
    return (raw.pendingActivities ?? [])
      .filter((p) => Number(p.state) === STARTED && p.lastStartedTime)
      .map((p) => ({
        ...run,
        activityId: p.activityId ?? '',
        activityType: p.activityType?.name ?? '',
        attempt: p.attempt ?? 1,
        startedAt: tsToMs(p.lastStartedTime),
        lastHeartbeatAt: optionalTsToMs(p.lastHeartbeatTime),
        worker: p.lastWorkerIdentity ?? '',
        taskQueue: p.activityOptions?.taskQueue?.name ?? '',
      }));
  }

  private async failLost(completion: AsyncCompletionClient, lost: PendingStarted, route: RetryRouter): Promise<number> {
    const since = Math.round((Date.now() - lost.startedAt) / 1000);
    try {
      const recovery = lost.worker === this.identity ? this.recoveryQueueFor(lost.taskQueue) : undefined;
      await sendRetryAhead(completion.connection, this.target.namespace, lost, this.identity, route(recovery));
      await completion.fail(
        { workflowId: lost.workflowId, runId: lost.runId, activityId: lost.activityId },
        infrastructureRetry(
          lost.worker === this.identity
            ? `the server handed this attempt to worker ${this.identity} ${since} s ago, but the worker never received it (lost between the server and the worker, as happens on a starved host); that worker failed it so it is retried now`
            : `the server handed this attempt to worker ${lost.worker} ${since} s ago, after that worker had died (a poll it had out was answered); worker ${this.identity} of its host failed it so it is retried now`,
          TASK_LOST,
        ),
      );
    } catch (err) {
      if (err instanceof ActivityNotFoundError) return 0; // ended meanwhile
      throw err;
    }
    const to = lost.worker === this.identity ? 'this worker' : `the dead worker ${lost.worker}`;
    this.say(`physvec worker: ${lost.activityType} (workflow ${lost.workflowId}, activity ${lost.activityId}, attempt ${lost.attempt}) was handed to ${to} by the server but never reached it: failed it so it is retried now (${since} s after the server started it)`);
    return 1;
  }
}
