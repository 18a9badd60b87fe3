// A toolchain check that timed out on a busy host, as the prepare activity reports it to Temporal: a
// retryable failure of its own type with a fixed delay, so the run waits and checks again rather than
// ending as bad input with advice to install a package that is there (issue 24).
import { ApplicationFailure } from '@temporalio/common';
import { ToolchainCheckTimedOutError } from '../../lib/errors.js';
import { TOOLCHAIN_BUSY_RETRY_DELAY_MS } from '../../temporal-config/timeouts.js';

export const TOOLCHAIN_BUSY_FAILURE = 'ToolchainBusy';

/** `err` as a retryable ToolchainBusy failure when it is a timed-out toolchain check; anything else unchanged. */
export function asToolchainBusyFailure(err: unknown, retryDelayMs = TOOLCHAIN_BUSY_RETRY_DELAY_MS): unknown {
  if (!(err instanceof ToolchainCheckTimedOutError)) return err;
  return ApplicationFailure.create({
    type: TOOLCHAIN_BUSY_FAILURE,
    message: `${err.message} (checked again in ${Math.round(retryDelayMs / 1000)} s)`,
    nonRetryable: false,
    nextRetryDelay: retryDelayMs,
    details: [{ profile: err.profile }],
    cause: err,
  });
}
