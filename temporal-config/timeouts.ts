// Activity timeouts and retry policies, one place. Pure data: imported by workflows.
//
// A worker that dies (kill -9, OOM) is noticed in about a second by a live worker of its host, which
// fails the attempts it held on the server (workers/dead-worker-watchdog.ts); a whole host lost is
// noticed by a missed heartbeat. So every kind of activity heartbeats, with a heartbeat timeout of
// HEARTBEAT_TIMEOUT: long enough that a starved host cannot fake a death (at load 85 on 2 cores a
// live worker's attempt was timed out after 20 s: issue 24.3, scripts/drill-load.ts), short enough
// that a lost host costs a minute, not a whole startToClose. Workers send heartbeats at least every
// HEARTBEAT_THROTTLE (not at the SDK's default 80 % of the timeout), so nearly the whole timeout is
// slack. No scheduleToStart timeouts: the server does not retry those, and a run must wait for a
// worker to come back rather than fail because none polls.
import type { ActivityOptions, RetryPolicy } from '@temporalio/common';

/** Transient faults (network, worker restarts) are retried; bad input is not. */
export const DEFAULT_RETRY: RetryPolicy = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '10s',
  maximumAttempts: 5,
  nonRetryableErrorTypes: ['BadInputError', 'LlmFatalError', 'BudgetExhaustedError', 'SchemaValidationError', 'CassetteMismatchError', 'AuthorStructureError', 'RunnerUnavailableError', 'SandboxOwnFailure'],
};

/** The heartbeat timeout of every activity kind (see the top of this file). */
export const HEARTBEAT_TIMEOUT_MS = 60_000;
export const HEARTBEAT_TIMEOUT = `${HEARTBEAT_TIMEOUT_MS / 1000}s` as const;

/** How often an activity without its own heartbeat is beaten for by the worker (workers/heartbeat-ticker.ts). */
export const HEARTBEAT_TICK_MS = 2_000;

/**
 * Worker option maxHeartbeatThrottleInterval: heartbeats reach the server at least this often, and
 * a beat sent sooner after the last one waits at most this long. Short, because a sandbox run beats
 * again as soon as a new checkpoint is stored, and the server only knows that checkpoint (the one a
 * retry restores) once the beat arrives; at 3 s a worker killed right after a save still lost it.
 */
export const HEARTBEAT_THROTTLE = '1s';

/** Light steps (artifact I/O, judging, reports): seconds normally; the worker heartbeats for them. */
export const LIGHT_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '10m',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: DEFAULT_RETRY,
};

/**
 * How long a reproduction's prepare step may keep waiting for a host busy enough that its toolchain
 * check times out (a ToolchainBusy failure, activities/pipeline/toolchain-busy.ts): busy periods of
 * hours (load 50–80 on 2 cores while other benchmarks run, issue 24) delay the run, they do not end it.
 */
export const PREPARE_DEADLINE = '6h';

/** The wait after a ToolchainBusy failure before the toolchain is checked again (its nextRetryDelay). */
export const TOOLCHAIN_BUSY_RETRY_DELAY_MS = 30_000;

/**
 * The prepare step (task, toolchain detection, substitution plan): a light step, except that on a
 * busy host one toolchain check may take its whole retry budget (a version probe of 120 s is tried
 * for 120+240+480 s, activities/toolchains/probe.ts), and detecting every profile for a substitution
 * plan several of those; so an attempt may last an hour (the worker heartbeats for it meanwhile). Attempts are
 * unlimited within PREPARE_DEADLINE, so a long busy period cannot use them up; bad input stays
 * non-retryable. Used by workflows from the patch PREPARE_POLICY_PATCH on (workflows/shared/prepare.ts).
 */
export const PREPARE_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '1h',
  scheduleToCloseTimeout: PREPARE_DEADLINE,
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...DEFAULT_RETRY, maximumInterval: '60s', maximumAttempts: Number.POSITIVE_INFINITY },
};

/**
 * How long one LLM call may keep retrying a provider that is down or throttling (from its first
 * attempt's scheduling): outages and rate-limit storms of many minutes are survived, a dead provider
 * still ends the run within this time with one line that says so (activities/llm/errors.ts).
 */
export const LLM_CALL_DEADLINE = '30m';

/**
 * LLM calls: a slow model may take minutes (startToClose; each HTTP call's own timeout,
 * llm.requestTimeoutMs = 4 min, is kept below what is left of it, so a hung provider costs one
 * timeout and a retry, not the attempt); callLlm heartbeats every 10 s with its usage. Attempts are unlimited within LLM_CALL_DEADLINE, the backoff grows to
 * at most a minute, and the provider's Retry-After / Gemini RetryInfo replaces it (nextRetryDelay).
 * Permanent faults (401/403/404, context length, refusals, schema, budget) are non-retryable failures.
 */
export const LLM_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '10m',
  scheduleToCloseTimeout: LLM_CALL_DEADLINE,
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: {
    ...DEFAULT_RETRY,
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '60s',
    maximumAttempts: Number.POSITIVE_INFINITY,
    nonRetryableErrorTypes: [...DEFAULT_RETRY.nonRetryableErrorTypes!, 'LlmUnavailableError', 'LlmRefusalError', 'LlmTruncatedError'],
  },
};

/**
 * Times a sandbox run may fail for a reason of its own (an exception in the activity: store I/O, a
 * bug) before it gives up. Worker crashes, shutdowns and the host's full disk (HostDiskFull, retried
 * after its own ~30 s delay) do not count (activities/sandbox/run-script.ts): a script's own failure
 * is a result (exit code, stderr), not an activity failure.
 */
export const SANDBOX_OWN_FAILURE_LIMIT = 4;

/** Sandbox runs: long simulations heartbeat every 5 s; attempts are unlimited because infrastructure faults must not use them up (see SANDBOX_OWN_FAILURE_LIMIT).
 * A run's liveness is its heartbeat; startToClose only bounds one attempt (the queue's maximum). */
export const SANDBOX_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '2h',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...DEFAULT_RETRY, maximumInterval: '5s', maximumAttempts: Number.POSITIVE_INFINITY },
};

/** The longest one full-size sandbox run may take (the sandbox request's own maximum, 24 h). */
export const LARGE_RUN_MAX_MS = 24 * 3600_000;

/** Full-size runs on the large queue: the same heartbeat liveness, one attempt may last up to LARGE_RUN_MAX_MS (plus restore and upload time). */
export const LARGE_SANDBOX_ACTIVITY: ActivityOptions = {
  ...SANDBOX_ACTIVITY,
  startToCloseTimeout: '25h',
};
