// Where a run is: its stage and iteration (search attributes `Stage`, `Iteration`, `Verdict`) and
// how long each stage took (the report's timings). One clock for the reproduction and the baselines.
import { markStage } from './stage.js';

export interface StageTiming {
  stage: string;
  startedAt: number;
  endedAt?: number;
}

/** What a progress query shows of the clock. */
export interface StagePosition {
  stage: string;
  iteration: number;
}

export class StageClock {
  constructor(
    /** Updated in place: it is (part of) the workflow's progress. */
    readonly position: StagePosition,
    readonly timings: StageTiming[] = [],
  ) {}

  /** Enter `stage` (or its next iteration): a new stage closes the last one's timing. */
  enter(stage: string, iteration = 0): void {
    const last = this.timings[this.timings.length - 1];
    if (last && last.stage !== stage && last.endedAt === undefined) last.endedAt = Date.now();
    if (!last || last.stage !== stage) this.timings.push({ stage, startedAt: Date.now() });
    this.position.stage = stage;
    this.position.iteration = iteration;
    markStage(stage, iteration, 'running');
  }

  /** The run is over: close the last stage's timing. */
  stop(): void {
    const last = this.timings[this.timings.length - 1];
    if (last && last.endedAt === undefined) last.endedAt = Date.now();
  }
}
