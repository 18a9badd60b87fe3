// Where a retry of an interrupted run should wait. The retries a worker sends ahead (dead-worker-
// watchdog.ts for a dead worker's attempts, undelivered-attempt-sweeper.ts for its own lost ones) go to
// the recovery queue, where every `physvec worker` keeps one slot (retry-priority.ts). But one slot
// serialises a mass recovery: a worker restarted after its host lost its only worker found four
// attempts of the dead one, moved all four there and ran them one at a time while its two regular
// slots idled (39.3 s to the last one's start, drill-load at idle). So as many retries as this
// process has regular slots free stay on the regular queue — still ahead of every queued run, by
// priority — and only the rest move to the recovery slot.
//
// A free slot is claimed for CLAIM_MS (the retry is then starting here, or another worker's free slot
// took it); the next attempt this process starts on that queue consumes the oldest claim.
import type { ActivityInterceptorsFactory } from '@temporalio/worker';

const CLAIM_MS = 20_000;

interface Served {
  regular: string;
  slots: number;
  claims: number[];
}

export class FreeSlots {
  private readonly byRecovery = new Map<string, Served>();
  private readonly running = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** This process polls `regular` with `slots` slots and its twin `recovery`. */
  serve(regular: string, recovery: string, slots: number): void {
    this.byRecovery.set(recovery, { regular, slots, claims: [] });
  }

  /**
   * Where the retry of an attempt whose worker served `recovery` should wait: this process's regular
   * queue while one of its slots there is free and unclaimed (the slot is then claimed), else
   * `recovery` itself. Undefined in, undefined out (the retry stays where it is).
   */
  retryQueue(recovery: string | undefined): string | undefined {
    const served = recovery === undefined ? undefined : this.byRecovery.get(recovery);
    if (!served) return recovery;
    const now = this.now();
    served.claims = served.claims.filter((at) => now - at < CLAIM_MS);
    if ((this.running.get(served.regular) ?? 0) + served.claims.length >= served.slots) return recovery;
    served.claims.push(now);
    return served.regular;
  }

  /** Counts the attempts this process runs per queue; a start on a regular queue consumes its oldest claim. */
  interceptor(): ActivityInterceptorsFactory {
    return (ctx) => ({
      inbound: {
        execute: async (input, next) => {
          const queue = ctx.info.taskQueue;
          this.running.set(queue, (this.running.get(queue) ?? 0) + 1);
          for (const served of this.byRecovery.values()) if (served.regular === queue) served.claims.shift();
          try {
            return await next(input);
          } finally {
            this.running.set(queue, (this.running.get(queue) ?? 1) - 1);
          }
        },
      },
    });
  }
}
