// The benchmark campaign: every (task, model, framework, trial) of a selection as one child workflow,
// at most `concurrency` at a time (a sliding window), each outcome written to the results store the
// moment it is known, so a crash, a restart or continue-as-new never loses or repeats a run.
// Orchestration only: planning, recording and the report are activities.
import {
  ApplicationFailure, CancellationScope, ContinueAsNew, continueAsNew, isCancellation, setHandler, upsertSearchAttributes, workflowInfo,
} from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { CampaignInput, type CampaignProgress } from '../../schemas/campaign.js';
import type { CampaignVerdict } from '../../schemas/verdict.js';
import { markStatus } from '../shared/stage.js';
import { SA } from '../../temporal-config/search-attributes.js';
import { describeZodError } from '../../lib/errors.js';
import { planning, reporting, results } from './activities.js';
import { RunWindow } from './window.js';
import { campaignProgressQuery, type CampaignCounts, type CampaignResult, type CarriedState } from './progress.js';


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
  const continuedAsNew = state?.continuedAsNew ?? 0;
  const window = new RunWindow(campaignId, spec, counts, { ...(state?.passesByGroup ?? {}) }, state?.launched ?? 0);
  let planned = 0;

  setHandler(campaignProgressQuery, (): CampaignProgress => ({
    campaignId,
    planned,
    done: counts.done,
    running: window.inFlight.size,
    skipped: counts.skipped,
    failed: counts.failed,
    passes: counts.passes,
    continuedAsNew,
    inFlight: [...window.inFlight.keys()],
  }));
  upsertSearchAttributes([
    { key: SA.CampaignId, value: campaignId },
    { key: SA.Verdict, value: 'running' satisfies CampaignVerdict },
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
    const { cutShort } = await window.drive(plan.filter((k) => !recorded.has(k.key)));
    if (cutShort) {
      const carried: CarriedState = { campaignId, scheduleId, continuedAsNew: continuedAsNew + 1, counts, passesByGroup: window.passesByGroup, launched: window.launched };
      await continueAsNew<typeof campaign>(input, carried);
    }

    await results.closeCampaign({ campaignId, status: 'completed' });
    const report = await reporting.writeCampaignReport({ campaignId });
    markStatus('completed');
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
    markStatus(isCancellation(err) ? 'stopped' : 'error');
    throw err;
  }
}
