// A sandbox attempt's heartbeat that never goes quiet. Some steps of a run send no beat of their own
// while they wait — for a pre-started chain or the warm python, both at the neighbours' priority
// (lib/process-priority.ts) and slow to get the CPU on a busy host — so the last details are sent
// again every `everyMs` when nothing newer was: the server's heartbeat timeout then measures whether
// this worker lives (its event loop turns), not how long a set-up step takes (issue 24.3).
export class SteadyHeartbeat {
  private last: unknown;
  private lastAt = Number.NEGATIVE_INFINITY;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly send: (details: unknown) => void, everyMs: number) {
    this.timer = setInterval(() => {
      if (performance.now() - this.lastAt >= everyMs) this.beat(this.last);
    }, everyMs);
    this.timer.unref();
  }

  beat(details: unknown): void {
    this.last = details;
    this.lastAt = performance.now();
    this.send(details);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
