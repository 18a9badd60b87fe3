// How a run that did not finish normally ends: the reason in one line (the failure chain unwrapped),
// whether it was a cancellation, and the failure the workflow closes with — after its report is
// written and its final `Verdict` set, so every ending is recorded (Temporal status, search attribute,
// report). Pure: safe in workflow code.
import { ApplicationFailure, isCancellation } from '@temporalio/workflow';
import type { RunMetrics } from '../../schemas/campaign.js';
import type { Verdict } from '../../schemas/verdict.js';

/** Failure type a workflow closes with when it ended in error after recording its report. */
export const RUN_ERROR = 'RunEndedInError';

/** The messages along a failure's cause chain (ActivityFailure → ApplicationFailure → …), outermost first. */
export function describeFailure(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as { message?: string; cause?: unknown } | undefined; e && parts.length < 4; e = e.cause as typeof e) {
    if (e.message && !parts.includes(e.message)) parts.push(e.message);
  }
  return parts.join(': ') || String(err);
}

/** An unexpected failure (not budget, not a stop) classified: a cancellation ends as `stopped`, anything else as `error`. */
export function unexpectedEnding(err: unknown, stage: string): { verdict: Extract<Verdict, 'stopped' | 'error'>; message: string } {
  if (isCancellation(err)) return { verdict: 'stopped', message: `cancelled during stage ${stage}` };
  return { verdict: 'error', message: `error during stage ${stage}: ${describeFailure(err)}` };
}

/**
 * The failure to close the workflow with once the ending is recorded: the original cause kept
 * (so a client can unwrap the root error), the report's path and the run's metrics in the details
 * (so a campaign records what was spent). A cancellation is rethrown as it is (the run shows as
 * Canceled in Temporal).
 */
export function endingFailure(err: unknown, message: string, details: Record<string, unknown>): unknown {
  if (isCancellation(err)) return err;
  return ApplicationFailure.create({
    type: RUN_ERROR,
    message,
    nonRetryable: true,
    cause: err instanceof Error ? err : undefined,
    details: [details],
  });
}

/** The run metrics a run that ended in error recorded in its failure (see endingFailure), found along the cause chain. */
export function runMetricsOfFailure(err: unknown): RunMetrics | undefined {
  for (let e = err as { cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e instanceof ApplicationFailure && e.type === RUN_ERROR) return (e.details?.[0] as { runMetrics?: RunMetrics } | undefined)?.runMetrics;
  }
  return undefined;
}
