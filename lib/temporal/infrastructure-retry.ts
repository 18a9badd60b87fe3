// A retryable failure that is nobody's fault but the infrastructure's (the worker holding the attempt
// died, the server's hand-over never reached a worker, a worker shut down, the chain launcher died):
// the retry should start now, not after the retry policy's backoff. The policy's backoff grows with
// the attempt (1, 2, 4, 8 s… for runJob), and an attempt interrupted three times would wait 4 s on
// an idle host before anyone may take it — for a fault that is already over (drill-load: WorkerGone
// failed 0.3 s after a kill, the retry started 4–5 s after). nextRetryDelay overrides the backoff for
// this one failure; 1 ms, because a zero duration is read as "not set".
import { ApplicationFailure } from '@temporalio/common';

export const IMMEDIATE_RETRY_MS = 1;

export function infrastructureRetry(message: string, type: string, details: unknown[] = []): ApplicationFailure {
  return ApplicationFailure.create({ message, type, nonRetryable: false, nextRetryDelay: IMMEDIATE_RETRY_MS, details });
}
