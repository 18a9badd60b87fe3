// The campaign's sliding window: at most `concurrency` children at a time, each outcome recorded the
// moment it is known, groups that have enough passes skipped (early stop), and a cut-off after
// `childrenPerRun` launches (or when Temporal suggests it) so the campaign can continue as new.
import { condition, executeChild, workflowInfo } from '@temporalio/workflow';
import type { CampaignSpec, RunKey, RunMetrics, RunRecord } from '../../schemas/campaign.js';
import { results } from './activities.js';
import { childCall, failureMetrics, passed } from './children.js';
import { currentQueues } from '../shared/queues.js';
import { describeFailure, runMetricsOfFailure } from '../shared/ending.js';
import { groupOf } from '../../lib/campaign/keys.js';
import type { CampaignCounts } from './progress.js';

export class RunWindow {
  readonly inFlight = new Map<string, RunKey>();
  private readonly inFlightByGroup: Record<string, number> = {};
  private fatal: unknown;
  private finishedRuns = 0;

  constructor(
    private readonly campaignId: string,
    private readonly spec: CampaignSpec,
    /** Updated in place (the progress query and the carried state read them). */
    readonly counts: CampaignCounts,
    readonly passesByGroup: Record<string, number>,
    public launched: number,
  ) {}

  private passesOf(k: RunKey): number {
    return this.passesByGroup[groupOf(k)] ?? 0;
  }

  private groupDone(k: RunKey): boolean {
    return this.spec.stopAfterPasses !== undefined && this.passesOf(k) >= this.spec.stopAfterPasses;
  }

  /**
   * With early stop, a group whose in-flight runs could still bring it to enough passes waits rather
   * than starting a trial that may turn out unnecessary; other groups go ahead.
   */
  private saturated(k: RunKey): boolean {
    const stopAfter = this.spec.stopAfterPasses;
    return stopAfter !== undefined && this.passesOf(k) + (this.inFlightByGroup[groupOf(k)] ?? 0) >= stopAfter;
  }

  private record(rec: Omit<RunRecord, 'campaignId' | 'recordedAt'>) {
    return results.recordRun({ ...rec, campaignId: this.campaignId, recordedAt: new Date().toISOString() });
  }

  /**
   * Run the queue through the window; whether it was cut short (the rest is for the next run of the
   * campaign). Drains first: continue-as-new must not leave children behind, and the end waits for
   * the last record. A failure to record is fatal and rethrown.
   */
  async drive(queue: RunKey[]): Promise<{ cutShort: boolean }> {
    let launchedThisRun = 0;
    let cutShort = false;
    while (queue.length > 0 && this.fatal === undefined) {
      if (workflowInfo().continueAsNewSuggested) {
        cutShort = true;
        break;
      }
      const stopIdx = queue.findIndex((k) => this.groupDone(k));
      if (stopIdx >= 0) {
        const [k] = queue.splice(stopIdx, 1);
        await this.record({ ...k!, workflowId: workflowInfo().workflowId, outcome: 'skipped', metrics: null });
        this.counts.skipped++;
        continue;
      }
      if (launchedThisRun >= this.spec.childrenPerRun) {
        cutShort = true;
        break;
      }
      const next = queue.findIndex((k) => !this.saturated(k));
      if (next < 0 || this.inFlight.size >= this.spec.concurrency) {
        const seen = this.finishedRuns;
        await condition(() => this.finishedRuns !== seen || this.fatal !== undefined);
        continue;
      }
      const [k] = queue.splice(next, 1);
      this.launch(k!);
      launchedThisRun++;
    }
    await condition(() => this.inFlight.size === 0);
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows, unchanged, what a run's recording rejected with (caught as unknown)
    if (this.fatal !== undefined) throw this.fatal;
    return { cutShort };
  }

  private launch(k: RunKey): void {
    const g = groupOf(k);
    this.inFlight.set(k.key, k);
    this.inFlightByGroup[g] = (this.inFlightByGroup[g] ?? 0) + 1;
    this.launched++;
    void this.runOne(k)
      .catch((err) => {
        this.fatal ??= err;
      })
      .finally(() => {
        this.inFlight.delete(k.key);
        this.inFlightByGroup[g] = (this.inFlightByGroup[g] ?? 1) - 1;
        this.finishedRuns++;
      });
  }

  /** One child run, recorded with its metrics (also when it ended in error: they travel in the failure). */
  private async runOne(k: RunKey): Promise<void> {
    const call = childCall(this.campaignId, this.spec, k, currentQueues().orchestration);
    const startedAt = Date.now();
    let outcome: 'done' | 'error';
    let metrics: RunMetrics;
    try {
      const res = (await executeChild(call.workflowType, call.options)) as { runMetrics?: RunMetrics } | undefined;
      if (res?.runMetrics) {
        outcome = 'done';
        metrics = res.runMetrics;
      } else {
        outcome = 'error';
        metrics = failureMetrics(k, `${call.workflowType} returned no runMetrics`, Date.now() - startedAt);
      }
    } catch (err) {
      outcome = 'error';
      metrics = runMetricsOfFailure(err) ?? failureMetrics(k, describeFailure(err), Date.now() - startedAt);
    }
    await this.record({ ...k, workflowId: call.options.workflowId!, outcome, metrics });
    if (outcome === 'done') this.counts.done++;
    else this.counts.failed++;
    if (passed(metrics, this.spec.passCriterion)) {
      this.counts.passes++;
      this.passesByGroup[groupOf(k)] = this.passesOf(k) + 1;
    }
  }
}
