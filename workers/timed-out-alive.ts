// One line when the server times out an activity on this worker while the worker is alive — the
// heartbeats did not reach the server in time (a starved host, a network stall), so the attempt is
// cancelled here and retried, a run's work done twice. A killed worker cannot say this, so these
// lines are exactly the false heartbeat timeouts (issue 24.3; scripts/drill-load.ts counts them).
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { CancelledFailure } from '@temporalio/common';

export const TIMED_OUT_ALIVE = 'timed out by the server while this worker was alive';

/**
 * With PHYSVEC_ATTEMPT_LINES=1 a worker also says which attempts it starts ("physvec worker: attempt
 * <workflow>/<activity>#<n> started on <pid>"), so a drill can tell which process held an attempt the
 * server later timed out — the server's history keeps the worker of an activity's last attempt only.
 */
export const ATTEMPT_LINES_ENV = 'PHYSVEC_ATTEMPT_LINES';
export const ATTEMPT_STARTED = /physvec worker: attempt (\S+)#(\d+) started on (\d+)/;
/** With the attempt lines: a gap between two heartbeats of one attempt, as the activity gave them to the SDK. */
export const HEARTBEAT_GAP = /physvec worker: attempt (\S+)#(\d+) gave no heartbeat for (\d+) ms/;
const GAP_LINE_MS = 5_000;

/** The server's verdicts on an attempt that reach a live worker as a cancellation. */
const SERVER_TIMEOUT_REASONS = new Set(['TIMED_OUT', 'NOT_FOUND']);

export function timedOutAliveReporter(print: (line: string) => void, attemptLines = process.env[ATTEMPT_LINES_ENV] === '1', gapLineMs = GAP_LINE_MS): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const attempt = `${ctx.info.workflowExecution?.workflowId ?? '-'}/${ctx.info.activityId}#${ctx.info.attempt}`;
        if (attemptLines) {
          print(`physvec worker: attempt ${attempt} started on ${process.pid}`);
          // The heartbeats the activity hands the SDK, timed here: a gap seen on this side is the
          // worker's; a timeout without one is the SDK's, the network's or the server's.
          const beat = ctx.heartbeat.bind(ctx);
          let last = Date.now();
          (ctx as { heartbeat: (d?: unknown) => void }).heartbeat = (d?: unknown) => {
            const now = Date.now();
            if (now - last > gapLineMs) print(`physvec worker: attempt ${attempt} gave no heartbeat for ${now - last} ms`);
            last = now;
            beat(d);
          };
        }
        try {
          return await next(input);
        } finally {
          const reason: unknown = ctx.cancellationSignal.reason;
          if (ctx.cancellationSignal.aborted && reason instanceof CancelledFailure && SERVER_TIMEOUT_REASONS.has(reason.message)) {
            const i = ctx.info;
            print(`physvec worker: activity ${i.activityType} (workflow ${i.workflowExecution?.workflowId ?? "-"}, activity ${i.activityId}, attempt ${i.attempt}) was ${TIMED_OUT_ALIVE} (${reason.message}; heartbeat timeout ${i.heartbeatTimeoutMs ?? '-'} ms): its heartbeats did not reach the server in time; it will be retried`);
          }
        }
      },
    },
  });
}
