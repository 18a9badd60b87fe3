// A `physvec worker`'s sandbox slots on the simulation queue and its recovery twin, counted in one
// place: what the runs of this process may take together, and where a retry it sends ahead should
// wait.
//
// Retries of interrupted runs (dead-worker-watchdog.ts for a dead worker's attempts,
// undelivered-attempt-sweeper.ts for this worker's lost ones) go to the recovery queue, so they start
// even while every regular slot is busy (retry-priority.ts). A fixed single recovery slot serialised
// a mass recovery, though: a worker restarted after its host lost its only worker ran that worker's
// three or four retries one at a time while its two regular slots idled (39.3 s and 65.0 s to the
// full run's start, drill-load at idle and at load 44; at load 44 a live process without sandbox
// slots, the orchestration worker, had moved all of them to the recovery queue before the restart).
// So the recovery worker takes as many tasks as the regular runs leave room for, up to slots + 1
// runs in all (`recoverySupplier`: one while the regular slots are busy, slots + 1 while they are
// idle), and a run that would go past slots + 1 — a regular task arriving while recoveries fill the
// idle slots — waits in this process for one to end (`interceptor`), heartbeating, so the memory
// the slots were sized for is never exceeded by more than one run.
//
// And a mover with regular slots free keeps as many retries on the regular queue (`retryQueue`),
// still ahead of every queued run by priority: a free slot is claimed for CLAIM_MS (the retry is
// then starting here, or another worker's free slot took it); the next start here consumes it.
import type { ActivityInterceptorsFactory, ActivitySlotInfo, CustomSlotSupplier, SlotPermit } from '@temporalio/worker';
import { HEARTBEAT_TICK_MS } from '../temporal-config/timeouts.js';

const CLAIM_MS = 20_000;

interface Served {
  regular: string;
  recovery: string;
  slots: number;
  claims: number[];
  /** Tasks of each queue this process took and has not finished (waiting ones included). */
  accepted: { regular: number; recovery: number };
  /** Runs past the wait (at most slots + 1). */
  running: number;
  /** Permits the recovery worker holds (polling or running). */
  recoveryPermits: number;
}

export class SandboxSlots {
  private readonly byQueue = new Map<string, Served>();
  private waiters: Array<() => void> = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** This process polls `regular` with `slots` slots and its twin `recovery` (recoverySupplier). */
  serve(regular: string, recovery: string, slots: number): void {
    const served: Served = { regular, recovery, slots, claims: [], accepted: { regular: 0, recovery: 0 }, running: 0, recoveryPermits: 0 };
    this.byQueue.set(regular, served).set(recovery, served);
  }

  /**
   * Where the retry of an attempt whose worker served `recovery` should wait: this process's regular
   * queue while one of its slots there is free and unclaimed (the slot is then claimed), else
   * `recovery` itself. Undefined in, undefined out (the retry stays where it is).
   */
  retryQueue(recovery: string | undefined): string | undefined {
    const served = recovery === undefined ? undefined : this.byQueue.get(recovery);
    if (!served || served.recovery !== recovery) return recovery;
    const now = this.now();
    served.claims = served.claims.filter((at) => now - at < CLAIM_MS);
    if (served.accepted.regular + served.claims.length >= served.slots) return recovery;
    served.claims.push(now);
    return served.regular;
  }

  /** The recovery worker's slots: a permit while the regular runs and the recovery permits leave room for one more run (slots + 1 in all). */
  recoverySupplier(recovery: string): CustomSlotSupplier<ActivitySlotInfo> {
    const served = this.byQueue.get(recovery);
    if (!served) throw new Error(`${recovery} is not served by this process`);
    const room = () => served.recoveryPermits + served.accepted.regular < served.slots + 1;
    const take = (): SlotPermit => {
      served.recoveryPermits++;
      return {};
    };
    return {
      type: 'custom',
      reserveSlot: (_ctx, abortSignal) => this.until(room, take, abortSignal),
      tryReserveSlot: () => (room() ? take() : null),
      markSlotUsed: () => undefined,
      releaseSlot: () => {
        served.recoveryPermits--;
        this.wake();
      },
    };
  }

  /**
   * Counts the tasks this process takes per queue (a start on a regular queue consumes its oldest
   * claim), and holds a run that would go past slots + 1 until one ends. Placed inside the attempt
   * registry (a killed worker's waiting tasks are retried too); heartbeats while it holds one, with
   * the details the attempt started with (the run's checkpoint reference stays).
   */
  interceptor(): ActivityInterceptorsFactory {
    return (ctx) => ({
      inbound: {
        execute: async (input, next) => {
          const served = this.byQueue.get(ctx.info.taskQueue);
          if (!served) return next(input);
          const kind = ctx.info.taskQueue === served.regular ? 'regular' : 'recovery';
          served.accepted[kind]++;
          if (kind === 'regular') served.claims.shift();
          try {
            const roomToRun = () => served.running < served.slots + 1;
            const run = () => void served.running++;
            if (roomToRun()) run();
            else {
              const details = ctx.info.heartbeatDetails;
              const timer = setInterval(() => ctx.heartbeat(details), HEARTBEAT_TICK_MS);
              try {
                await this.until(roomToRun, run, ctx.cancellationSignal);
              } finally {
                clearInterval(timer);
              }
            }
            try {
              return await next(input);
            } finally {
              served.running--;
            }
          } finally {
            served.accepted[kind]--;
            this.wake();
          }
        },
      },
    });
  }

  /**
   * Once `ok()` holds (checked now and at every release), `take()` — in the same tick, so two
   * waiters never both take the last room; rejects with the signal's reason when it aborts.
   */
  private until<T>(ok: () => boolean, take: () => T, signal?: AbortSignal): Promise<T> {
    if (ok()) return Promise.resolve(take());
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        if (signal?.aborted) return void reject(signal.reason);
        if (!ok()) return void this.waiters.push(check);
        resolve(take());
      };
      signal?.addEventListener('abort', () => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(signal.reason);
      }, { once: true });
      this.waiters.push(check);
    });
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const check of waiting) check();
  }
}
