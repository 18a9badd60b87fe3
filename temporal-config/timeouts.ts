// Activity timeouts and retry policies, one place. Pure data: imported by workflows.
import type { ActivityOptions, RetryPolicy } from '@temporalio/common';

/** Transient faults (network, worker restarts) are retried; bad input is not. */
export const DEFAULT_RETRY: RetryPolicy = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '1m',
  maximumAttempts: 5,
  nonRetryableErrorTypes: ['BadInputError', 'LlmFatalError', 'BudgetExhaustedError', 'SchemaValidationError', 'CassetteMismatchError', 'AuthorStructureError', 'RunnerUnavailableError'],
};

export const LIGHT_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '2m',
  retry: DEFAULT_RETRY,
};

/** LLM calls: a slow model may take minutes; Retry-After is honoured by the activity (nextRetryDelay). */
export const LLM_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '10m',
  heartbeatTimeout: '5m',
  retry: { ...DEFAULT_RETRY, maximumAttempts: 8 },
};

/** Sandbox runs: long simulations heartbeat; a missed heartbeat means the worker died and the run is retried elsewhere. */
export const SANDBOX_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '2h',
  heartbeatTimeout: '30s',
  retry: { ...DEFAULT_RETRY, maximumAttempts: 4 },
};
