// Where the retries a worker process sends ahead should wait: dead-worker-watchdog.ts fails a dead
// worker's attempts, undelivered-attempt-sweeper.ts this worker's lost ones, and each retry goes to
// the front of a queue (retry-priority.ts) — but which queue?
//
// The recovery twin of the simulation queue, where every `physvec worker` keeps one slot beyond its
// regular ones, starts a retry even while every regular slot is busy. But it is one slot: a dead
// worker's three or four retries all moved there ran one after the other while a restarted worker's
// regular slots idled (39.3 s to the full run's start at idle, 65.0 s at load 44, drill-load: at load
// 44 the orchestration worker, a live process with no sandbox slots, had moved all of them before
// the restart). A recovery worker that took more than one run when the regular slots were idle did
// start them at once, but its worker then also took regular tasks it could not run (they waited in
// it while another worker had free slots) and a kill of that worker left five retries (71.7 s).
//
// So, per pass of a mover, its retries go: first to the regular slots this process has free (each
// claimed for CLAIM_MS: the retry is then starting here, or another worker's free slot took it; the
// next start here consumes the claim), then one to the recovery queue, and the rest to the regular
// queue, ahead of every queued run by priority: a restarted 2-slot worker starts three at once, and
// the rest take the first regular slots that free, on any worker. "The regular queue" even for an
// attempt that ran on the recovery queue (a retry interrupted again): left there, such a retry of
// the full run waited for the one recovery slot while new runs took the regular ones (68.6 s at
// load 43).
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { regularQueueOf } from '../temporal-config/queues.js';

const CLAIM_MS = 20_000;

interface Served {
  regular: string;
  slots: number;
  claims: number[];
}

/** Routes the retries of one pass: `recovery` is the recovery queue the attempt's build serves (undefined: none, and the retry stays where it is); the result is the queue to move the retry to. */
export type RetryRouter = (recovery: string | undefined) => string | undefined;

export class SandboxSlots {
  private readonly byRecovery = new Map<string, Served>();
  private readonly running = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** This process polls `regular` with `slots` slots and its twin `recovery` with one. */
  serve(regular: string, recovery: string, slots: number): void {
    this.byRecovery.set(recovery, { regular, slots, claims: [] });
  }

  /** A router for one pass of a mover. */
  router(): RetryRouter {
    const sentToRecovery = new Set<string>();
    return (recovery) => {
      if (recovery === undefined) return undefined;
      const own = this.claimFreeSlot(recovery);
      if (own) return own;
      // The rest go back to the regular queue even when the attempt ran on the recovery queue (a retry
      // interrupted again): there the first regular slot that frees takes it, ahead of new runs.
      if (sentToRecovery.has(recovery)) return regularQueueOf(recovery);
      sentToRecovery.add(recovery);
      return recovery;
    };
  }

  /** This process's regular queue whose twin is `recovery`, if one of its slots there is free and unclaimed (it is then claimed). */
  private claimFreeSlot(recovery: string): string | undefined {
    const served = this.byRecovery.get(recovery);
    if (!served) return undefined;
    const now = this.now();
    served.claims = served.claims.filter((at) => now - at < CLAIM_MS);
    if ((this.running.get(served.regular) ?? 0) + served.claims.length >= served.slots) return undefined;
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

/** The router of a process without sandbox slots of its own: one retry per pass to the recovery queue, the rest to the regular queue. */
export const routerWithoutSlots = (): RetryRouter => new SandboxSlots().router();
