// Where a sandbox run's wall time goes (work dir, uid, cgroup, chain start, warm fork, script,
// teardown): consecutive intervals, for the benchmark (scripts/bench-sandbox.ts) and for anyone
// asking why a run took as long as it did (RunSandboxOptions.onPhases). Costs one clock read per mark.
export type Phases = Array<[phase: string, ms: number]>;

export class PhaseClock {
  readonly phases: Phases = [];
  private last = performance.now();

  /** The interval since the previous mark is `phase`. */
  mark(phase: string): void {
    const now = performance.now();
    this.phases.push([phase, now - this.last]);
    this.last = now;
  }
}
