// The Temporal face of the sandbox: one activity, runScript, for the simulation queue.
// - heartbeats carry {phase, elapsedMs, stdoutBytes, stderrBytes}, from the run's set-up until its
//   work dir is removed (collecting and cleaning up after a script that left a huge tree can take
//   minutes), so a dead worker is noticed within the heartbeat timeout and the run is retried
//   elsewhere, and a live one is never taken for dead;
// - cancellation (workflow cancelled, activity timed out) kills the whole sandbox and reports the
//   activity as cancelled;
// - worker shutdown kills the sandbox and fails the attempt *retryably*, so another worker reruns it
//   at once instead of waiting for a timeout;
// - a malformed request or an absent toolchain is a non-retryable failure naming the problem;
// - attempts are unlimited (temporal-config/timeouts.ts) so crashes and shutdowns never use up a run;
//   only the activity's own exceptions are counted (in the heartbeat details, which survive a crash),
//   and the SANDBOX_OWN_FAILURE_LIMIT-th ends the run. A script that fails is a result, not one of these;
// - heartbeats also carry the script's latest physvec_runtime progress values and its checkpoint
//   manifest (runners/sandbox/run-state): every heartbeat snapshots the checkpoint dir into the
//   artifact store, and an attempt that finds a checkpoint in the previous attempt's details
//   restores it into the new work dir before the script starts — on whichever worker takes it;
//   the run's checkpoints live in a store of their own, capped, and superseded snapshots are removed;
// - the host's full disk is no result of the script and no own failure either
//   (runners/sandbox/host-disk.ts): a run it made fail is a retryable HostDiskFull failure, retried
//   after HOST_DISK_RETRY_DELAY_MS and not counted; every attempt first waits (heartbeating,
//   cancellable) until the disk has room, so the run goes on by itself once space is freed;
// - a run's time limit is its own CPU time; its wall-clock guard expiring (runners/sandbox/limits.ts)
//   is a retryable HostBusy failure, not counted and never a result a verdict sees;
// - a run whose chain was lost because the worker's chain launcher died under it
//   (runners/sandbox/launcher.ts) is a retryable ChainLost failure, not counted either.
import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { ArtifactStore, artifactStore } from '../../lib/artifacts/store.js';
import { isStoreUnavailable } from '../../lib/artifacts/blob-backend.js';
import { BadInputError } from '../../lib/errors.js';
import { infrastructureRetry } from '../../lib/temporal/infrastructure-retry.js';
import type { SandboxHeartbeat, SandboxRequestInput, SandboxResult } from '../../schemas/sandbox.js';
import {
  hostDiskFor,
  HostDiskFullError,
  parseSandboxRequest,
  runSandboxed,
  SandboxCancelledError,
  SandboxWallGuardError,
  RunnerUnavailableError,
  ChainLostError,
  type FreeSpaceProbe,
} from '../../runners/sandbox/index.js';
import { checkpointStoreFor, previousRunState, RunStateWatcher } from '../../runners/sandbox/run-state/index.js';
import { SANDBOX_OWN_FAILURE_LIMIT } from '../../temporal-config/timeouts.js';
import { SteadyHeartbeat } from './steady-heartbeat.js';

/** How often an attempt's last heartbeat is repeated while no step sends one (the run's own beat is every 5 s). */
const STEADY_BEAT_MS = 5_000;

/** The sandbox limits of the queue a worker serves (e.g. the large queue's bigger runs). */
export interface QueueSandboxLimits {
  /** Each run gets at least this much memory. */
  memoryMb?: number;
  /** No run may last longer than this, whatever it asks (the queue's maximum). */
  maxTimeoutMs?: number;
}

export interface SandboxActivityOptions {
  /** How often the running sandbox heartbeats (default 5 s; the SDK throttles what reaches the server). */
  heartbeatMs?: number;
  limits?: QueueSandboxLimits;
  /** How the host's free space is read (tests say "1 MiB free"); default fs.statfs. */
  freeSpace?: FreeSpaceProbe;
  /** Retry delay after a HostDiskFull failure (default HOST_DISK_RETRY_DELAY_MS). */
  hostDiskRetryDelayMs?: number;
}

/** Failure type of an attempt cut short by worker shutdown; retryable by design. */
export const WORKER_SHUTDOWN_FAILURE = 'WorkerShutdown';
/** Failure type of the run's last own failure (non-retryable). */
export const SANDBOX_OWN_FAILURE = 'SandboxOwnFailure';
/** Failure type of an attempt the host's full disk made fail; retryable, and not an own failure. */
export const HOST_DISK_FULL_FAILURE = 'HostDiskFull';
/** Failure type of an attempt stopped by the run's wall-clock guard (a host too busy to give it its CPU time); retryable, not an own failure. */
export const HOST_BUSY_FAILURE = 'HostBusy';
/** Failure type of an attempt whose chain's end could not be known (the worker's chain launcher died); retryable, not an own failure. */
export const CHAIN_LOST_FAILURE = 'ChainLost';
/** The artifact store could not be reached (lib/artifacts/s3-errors.ts): an infrastructure fault, retried. */
const STORE_UNAVAILABLE_FAILURE = 'ArtifactStoreUnavailable';
/** Freeing disk space takes a person minutes: no point retrying at the policy's 5 s. */
export const HOST_DISK_RETRY_DELAY_MS = 30_000;

/** Own failures of earlier attempts, carried in every heartbeat so the count survives a crash. */
function ownFailuresSoFar(details: unknown): number {
  const n = (details as { ownFailures?: unknown } | undefined)?.ownFailures;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : 0;
}

export function createSandboxActivities(store: ArtifactStore = artifactStore(), opts: SandboxActivityOptions = {}) {
  return {
    async runScript(request: SandboxRequestInput): Promise<SandboxResult> {
      const ctx = Context.current();
      let req;
      try {
        req = withQueueLimits(parseSandboxRequest(request), opts.limits);
      } catch (err) {
        if (err instanceof BadInputError) {
          throw ApplicationFailure.create({ type: 'BadInputError', message: err.message, nonRetryable: true, details: [{ field: err.fieldPath ?? null }] });
        }
        throw err;
      }
      const ownFailures = ownFailuresSoFar(ctx.info.heartbeatDetails);
      const hostDisk = hostDiskFor(store, opts.freeSpace);
      // The run's checkpoints in a store of their own: its superseded snapshots can be removed.
      const wf = ctx.info.workflowExecution;
      const checkpoints = checkpointStoreFor(store, { workflowId: wf?.workflowId ?? '', runId: wf?.runId ?? '', activityId: ctx.info.activityId });
      const runState = new RunStateWatcher(checkpoints, previousRunState(ctx.info.heartbeatDetails), undefined, (err) => hostDisk.noteWriteError(err));
      const label = req.label ?? null;
      const run = `sandbox run${label ? ` ${label}` : ''}`;
      // Until this attempt's first snapshot, the previous checkpoint stays in the details: dying early loses nothing.
      // Every beat goes through `hb`, which repeats the last one while a step sends none (steady-heartbeat.ts).
      const hb = new SteadyHeartbeat((d) => ctx.heartbeat(d), opts.heartbeatMs ?? STEADY_BEAT_MS);
      hb.beat({ phase: 'starting', label, ownFailures, ...runState.details() });
      try {
        await hostDisk.waitForRoom({
          signal: ctx.cancellationSignal,
          pollMs: opts.heartbeatMs,
          onWait: (shortage) => hb.beat({ phase: 'waiting-for-disk', label, ownFailures, hostDisk: shortage, ...runState.details() }),
          log: (line) => {
            ctx.log.warn(`${run}: ${line}`);
          },
        });
      } catch (err) {
        hb.stop();
        if (!ctx.cancellationSignal.aborted) throw err;
        throw cancellationFailure(ctx.cancellationSignal.reason, {
          shutdown: `the worker shut down while ${run} waited for disk space; the run will be retried`,
          cancelled: `${run} was cancelled while it waited for disk space`,
        });
      }
      let running = true;
      let succeeded = false;
      // The run's latest counters (run id, elapsed, output bytes), repeated in a beat a checkpoint triggers.
      let lastInfo: Partial<SandboxHeartbeat> = {};
      const beat = () => {
        if (running) hb.beat({ ...lastInfo, label, ownFailures, ...runState.details() });
      };
      try {
        const result = await runSandboxed(req, {
          store,
          signal: ctx.cancellationSignal,
          heartbeatMs: opts.heartbeatMs,
          hostDisk,
          beforeStart: async ({ privateDir }) => {
            const restored = await runState.attach(privateDir, ctx.info.attempt);
            if (restored > 0) ctx.log.info(`sandbox run ${req.label ?? ''}: restored ${restored} checkpoint file(s) from an earlier attempt`);
            runState.watchCheckpoints(beat);
          },
          onHeartbeat: (info) => {
            lastInfo = info;
            beat();
            // Once the script has ended its checkpoint is final; snapshotting while the work dir is
            // being removed could store a partial one.
            if (info.phase === 'preparing' || info.phase === 'running') void runState.poll().then(beat);
            else runState.close();
          },
        });
        const checkpointSkipped = runState.skipped();
        succeeded = true;
        return checkpointSkipped ? { ...result, checkpointSkipped } : result;
      } catch (err) {
        if (err instanceof SandboxCancelledError) throw runCancellationFailure(err, ctx.cancellationSignal.reason);
        if (err instanceof RunnerUnavailableError) {
          throw ApplicationFailure.create({ type: 'RunnerUnavailableError', message: err.message, nonRetryable: true });
        }
        if (err instanceof HostDiskFullError) {
          // The count stays as it was: the host's disk is nobody's failure the run should pay for.
          hb.beat({ phase: 'host-disk-full', label, ownFailures, hostDisk: err.shortage, ...runState.details() });
          throw ApplicationFailure.create({
            type: HOST_DISK_FULL_FAILURE,
            message: `${run}: ${err.message}`,
            nonRetryable: false,
            nextRetryDelay: opts.hostDiskRetryDelayMs ?? HOST_DISK_RETRY_DELAY_MS,
            details: [err.shortage],
            cause: err,
          });
        }
        if (err instanceof SandboxWallGuardError) {
          // The host did not give the run its time: retried, and not the run's own failure either.
          hb.beat({ phase: 'wall-guard', label, ownFailures, ...runState.details() });
          throw ApplicationFailure.create({ type: HOST_BUSY_FAILURE, message: err.message, nonRetryable: false, details: [err.result.usage], cause: err });
        }
        if (err instanceof ChainLostError) {
          hb.beat({ phase: 'chain-lost', label, ownFailures, ...runState.details() });
          throw infrastructureRetry(err.message, CHAIN_LOST_FAILURE);
        }
        if (isStoreUnavailable(err)) {
          // The artifact store (a bucket) is unreachable or refuses this worker: retried, not the run's own failure.
          hb.beat({ phase: 'store-unavailable', label, ownFailures, ...runState.details() });
          throw ApplicationFailure.create({ type: STORE_UNAVAILABLE_FAILURE, message: `${run}: ${(err as Error).message}`, nonRetryable: false, cause: err as Error });
        }
        const failures = ownFailures + 1;
        hb.beat({ phase: 'failed', label, ownFailures: failures, ...runState.details() });
        const message = `sandbox run ${req.label ?? ''} failed (own failure ${failures} of at most ${SANDBOX_OWN_FAILURE_LIMIT}): ${(err as Error)?.message ?? String(err)}`;
        throw ApplicationFailure.create({ type: failures >= SANDBOX_OWN_FAILURE_LIMIT ? SANDBOX_OWN_FAILURE : 'SandboxError', message, nonRetryable: failures >= SANDBOX_OWN_FAILURE_LIMIT, cause: err instanceof Error ? err : undefined });
      } finally {
        running = false;
        hb.stop();
        runState.close();
        await runState.finish(succeeded);
      }
    },
  };
}

export type SandboxActivities = ReturnType<typeof createSandboxActivities>;

function withQueueLimits<R extends { memoryMb: number; timeoutMs: number }>(req: R, limits: QueueSandboxLimits | undefined): R {
  if (!limits) return req;
  return {
    ...req,
    memoryMb: Math.max(req.memoryMb, limits.memoryMb ?? 0),
    timeoutMs: Math.min(req.timeoutMs, limits.maxTimeoutMs ?? Number.POSITIVE_INFINITY),
  };
}

function runCancellationFailure(err: SandboxCancelledError, reason: unknown): Error {
  const summary = { runId: err.result.runId, durationMs: Math.round(err.result.durationMs), stderrTail: err.result.stderrTail.slice(-1000) };
  return cancellationFailure(reason, {
    shutdown: `the worker shut down during sandbox run ${err.result.runId}; its processes were killed and the run will be retried`,
    cancelled: err.message,
  }, summary);
}

/** Worker shutdown → a retryable WorkerShutdown failure; any other cancellation → the attempt ends cancelled. */
function cancellationFailure(reason: unknown, messages: { shutdown: string; cancelled: string }, summary?: Record<string, unknown>): Error {
  const details = summary ? [summary] : [];
  if (reason instanceof CancelledFailure && reason.message === 'WORKER_SHUTDOWN') {
    return infrastructureRetry(messages.shutdown, WORKER_SHUTDOWN_FAILURE, details);
  }
  // Rethrowing the SDK's own CancelledFailure makes the attempt end as cancelled (or timed out).
  return reason instanceof CancelledFailure ? reason : new CancelledFailure(messages.cancelled, details);
}
