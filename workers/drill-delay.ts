// Drills only: PHYSVEC_DRILL_DELAY="judgeProgramming=8000,writeReport=3000" makes the named
// activities wait that long (heartbeating, cancellable) before they run, so a test can kill a worker
// *during* an activity that normally takes milliseconds and measure the recovery. Unset: no effect.
import type { ActivityInterceptorsFactory } from '@temporalio/worker';

export const DRILL_DELAY_ENV = 'PHYSVEC_DRILL_DELAY';

export function drillDelays(raw: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of (raw ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\w+)=(\d+)$/.exec(part);
    if (!m) throw new Error(`${DRILL_DELAY_ENV}: "${part}" is not <activityType>=<milliseconds>; e.g. ${DRILL_DELAY_ENV}=judgeProgramming=8000`);
    out.set(m[1]!, Number(m[2]));
  }
  return out;
}

export function drillDelayInterceptor(delays: Map<string, number>): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const ms = delays.get(ctx.info.activityType);
        if (ms) await ctx.sleep(ms);
        return next(input);
      },
    },
  });
}
