// The benchmark campaign: every (task, model, framework, trial) of a selection as one child workflow,
// at most `concurrency` at a time (a sliding window), each outcome written to the results store the
// moment it is known, so a crash, a restart or continue-as-new never loses or repeats a run.
// Orchestration only: planning, recording and the report are activities.
import {
  ApplicationFailure, CancellationScope, ContinueAsNew, condition, continueAsNew, executeChild, isCancellation, setHandler, upsertSearchAttributes, workflowInfo,
} from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { CampaignInput, type CampaignProgress, type RunKey, type RunMetrics, type RunRecord } from '../../schemas/campaign.js';
import { SA } from '../../temporal-config/search-attributes.js';
import { describeZodError } from '../../lib/errors.js';
import { planning, reporting, results } from './activities.js';
import { childCall, failureMetrics, passed } from './children.js';
import { describeFailure, runMetricsOfFailure } from '../shared/ending.js';
import { groupOf } from '../../lib/campaign/keys.js';
import { campaignProgressQuery, type CampaignCounts, type CampaignResult, type CarriedState } from './progress.js';

export type { CampaignResult, CarriedState } from './progress.js';

/** Set by the server on every workflow a Schedule starts: the schedule's id. */
const SCHEDULED_BY_ID = defineSearchAttributeKey('TemporalScheduledById', SearchAttributeType.KEYWORD);

export async function campaign(input: CampaignInput, state?: CarriedState): Promise<CampaignResult> {
  const parsed = CampaignInput.safeParse(input);
  if (!parsed.success) throw ApplicationFailure.nonRetryable(describeZodError(parsed.error, 'campaign input'), 'BadInputError');
  const spec = parsed.data;
  const info = workflowInfo();
  const scheduleId = state?.scheduleId ?? info.typedSearchAttributes.get(SCHEDULED_BY_ID) ?? null;
  // A scheduled run is a new campaign each time: its id is the workflow id the schedule gave it.
  const campaignId = state?.campaignId ?? (scheduleId ? info.workflowId : spec.campaignId ?? info.workflowId);

  const counts: CampaignCounts = { ...(state?.counts ?? { done: 0, failed: 0, skipped: 0, passes: 0 }) };
  const passesByGroup: Record<string, number> = { ...(state?.passesByGroup ?? {}) };
  const continuedAsNew = state?.continuedAsNew ?? 0;
  let launched = state?.launched ?? 0;
  let planned = 0;
  const inFlight = new Map<string, RunKey>();
  const inFlightByGroup: Record<string, number> = {};

  setHandler(campaignProgressQuery, (): CampaignProgress => ({
    campaignId,
    planned,
    done: counts.done,
    running: inFlight.size,
    skipped: counts.skipped,
    failed: counts.failed,
    passes: counts.passes,
    continuedAsNew,
    inFlight: [...inFlight.keys()],
  }));
  upsertSearchAttributes([
    { key: SA.CampaignId, value: campaignId },
    { key: SA.Verdict, value: 'running' },
  ]);

  let opened = false;
  try {
    const plan = await planning.planCampaign(spec);
    planned = plan.length;
    if (!state) {
      await results.openCampaign({ campaignId, workflowId: info.workflowId, scheduleId, label: spec.label ?? null, spec, planned });
    }
    opened = true;
    const recorded = new Set(await results.recordedKeys({ campaignId }));
    // A campaign restarted under the same id (not continued) resumes: what is recorded counts as done.
    if (!state) counts.done += plan.filter((k) => recorded.has(k.key)).length;
    const queue = plan.filter((k) => !recorded.has(k.key));

    const stopAfter = spec.stopAfterPasses;
    const passesOf = (k: RunKey) => passesByGroup[groupOf(k)] ?? 0;
    const groupDone = (k: RunKey) => stopAfter !== undefined && passesOf(k) >= stopAfter;
    // With early stop, a group whose in-flight runs could still bring it to enough passes waits
    // rather than starting a trial that may turn out unnecessary; other groups go ahead.
    const saturated = (k: RunKey) => stopAfter !== undefined && passesOf(k) + (inFlightByGroup[groupOf(k)] ?? 0) >= stopAfter;

    let fatal: unknown;
    let finishedRuns = 0;
    const record = (rec: Omit<RunRecord, 'campaignId' | 'recordedAt'>) =>
      results.recordRun({ ...rec, campaignId, recordedAt: new Date().toISOString() });

    const runOne = async (k: RunKey): Promise<void> => {
      const call = childCall(campaignId, spec, k);
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
        // A run that ended in error still recorded its report and what it spent (in the failure's details).
        outcome = 'error';
        metrics = runMetricsOfFailure(err) ?? failureMetrics(k, describeFailure(err), Date.now() - startedAt);
      }
      await record({ ...k, workflowId: call.options.workflowId!, outcome, metrics });
      if (outcome === 'done') counts.done++;
      else counts.failed++;
      if (passed(metrics, spec.passCriterion)) {
        counts.passes++;
        passesByGroup[groupOf(k)] = passesOf(k) + 1;
      }
    };
    const launch = (k: RunKey) => {
      const g = groupOf(k);
      inFlight.set(k.key, k);
      inFlightByGroup[g] = (inFlightByGroup[g] ?? 0) + 1;
      launched++;
      void runOne(k)
        .catch((err) => {
          fatal ??= err;
        })
        .finally(() => {
          inFlight.delete(k.key);
          inFlightByGroup[g] = (inFlightByGroup[g] ?? 1) - 1;
          finishedRuns++;
        });
    };

    let launchedThisRun = 0;
    let cutShort = false;
    while (queue.length > 0 && fatal === undefined) {
      if (workflowInfo().continueAsNewSuggested) {
        cutShort = true;
        break;
      }
      const stopIdx = queue.findIndex(groupDone);
      if (stopIdx >= 0) {
        const [k] = queue.splice(stopIdx, 1);
        await record({ ...k!, workflowId: info.workflowId, outcome: 'skipped', metrics: null });
        counts.skipped++;
        continue;
      }
      if (launchedThisRun >= spec.childrenPerRun) {
        cutShort = true;
        break;
      }
      const next = queue.findIndex((k) => !saturated(k));
      if (next < 0 || inFlight.size >= spec.concurrency) {
        const seen = finishedRuns;
        await condition(() => finishedRuns !== seen || fatal !== undefined);
        continue;
      }
      const [k] = queue.splice(next, 1);
      launch(k!);
      launchedThisRun++;
    }
    // Drain: continue-as-new must not leave children behind, and the end waits for the last record.
    await condition(() => inFlight.size === 0);
    if (fatal !== undefined) throw fatal;
    if (cutShort) {
      const carried: CarriedState = { campaignId, scheduleId, continuedAsNew: continuedAsNew + 1, counts, passesByGroup, launched };
      await continueAsNew<typeof campaign>(input, carried);
    }

    await results.closeCampaign({ campaignId, status: 'completed' });
    const report = await reporting.writeCampaignReport({ campaignId });
    upsertSearchAttributes([{ key: SA.Verdict, value: 'completed' }]);
    return { campaignId, planned, counts, continuedAsNew, report };
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err;
    // Every ending recorded: the store closes the campaign, the report shows what was done, and
    // `Verdict` says stopped (cancelled) or error — each step tried even if an earlier one fails.
    if (opened) {
      await CancellationScope.nonCancellable(async () => {
        await results.closeCampaign({ campaignId, status: 'failed' }).catch(() => undefined);
        await reporting.writeCampaignReport({ campaignId }).catch(() => undefined);
      });
    }
    upsertSearchAttributes([{ key: SA.Verdict, value: isCancellation(err) ? 'stopped' : 'error' }]);
    throw err;
  }
}
