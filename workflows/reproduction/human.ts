// The human in the loop of a reproduction: stop, pause/resume (or `pauseAfter` a stage), approve, and
// a replacement script, accepted after a structure check and swapped in at the next stage boundary.
import { condition, setHandler } from '@temporalio/workflow';
import type { ScriptSummary } from '../../schemas/pipeline.js';
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import { light } from '../shared/activities.js';
import { StopRequested } from '../shared/run-frame.js';
import { markStatus } from '../shared/stage.js';
import { approveSignal, pauseSignal, replaceScriptUpdate, resumeSignal, stopSignal, type HumanEvent, type ReproductionProgress } from './progress.js';

export class HumanControls {
  private stopRequested: string | undefined;
  private pauseRequested = false;
  private resumed = false;
  private pendingScript: ScriptSummary | undefined;

  constructor(
    private readonly progress: ReproductionProgress,
    private readonly pauseAfter: readonly string[],
    language: () => ScriptLanguage,
  ) {
    setHandler(stopSignal, (note) => { this.stopRequested = note ?? 'stopped by a person'; this.event('stop', note); });
    setHandler(pauseSignal, (note) => { this.pauseRequested = true; this.event('pause', note); });
    setHandler(resumeSignal, (note) => { this.resumed = true; this.event('resume', note); });
    setHandler(approveSignal, (note) => this.event('approve', note));
    setHandler(replaceScriptUpdate, async ({ script, note }) => {
      const summary = await light.acceptScriptText({ script, language: language() });
      if (summary.problems.length === 0) {
        this.pendingScript = summary;
        this.event('replace-script', note);
      }
      return { accepted: summary.problems.length === 0, problems: summary.problems };
    });
  }

  private event(kind: HumanEvent['kind'], note?: string): void {
    this.progress.human.push({ at: Date.now(), kind, note, stage: this.progress.stage });
  }

  /** A stop a person asked for ends the run where it is. */
  checkStop(): void {
    if (this.stopRequested) throw new StopRequested(this.stopRequested);
  }

  /** Between stages: honour a pause, then a stop, then swap in a script a person supplied. */
  async boundary(after: string, record: { script?: ScriptSummary }): Promise<void> {
    if (this.pauseRequested || this.pauseAfter.includes(after)) {
      this.progress.status = 'paused';
      markStatus('paused');
      this.resumed = false;
      await condition(() => this.resumed || this.stopRequested !== undefined);
      this.pauseRequested = false;
      this.progress.status = 'running';
      markStatus('running');
    }
    this.checkStop();
    if (this.pendingScript) {
      record.script = this.pendingScript;
      this.pendingScript = undefined;
    }
  }
}
