// The campaign's query and what it carries across continue-as-new. Pure definitions: importable by
// the workflow, the CLI and tests.
import { defineQuery } from '@temporalio/workflow';
import type { CampaignProgress, CampaignReportResult } from '../../schemas/campaign.js';

export const campaignProgressQuery = defineQuery<CampaignProgress>('progress');

export interface CampaignCounts {
  /** Runs recorded `done` (their child returned metrics). */
  done: number;
  /** Runs recorded `error` (the child failed or returned no metrics). */
  failed: number;
  /** Runs recorded `skipped` by early stop. */
  skipped: number;
  /** Recorded runs that passed (by the campaign's pass criterion). */
  passes: number;
}

/** What one workflow run hands the next when it continues as new (small: counters, not runs). */
export interface CarriedState {
  campaignId: string;
  scheduleId: string | null;
  continuedAsNew: number;
  counts: CampaignCounts;
  /** Passes so far per (task, model, framework) group, for early stop. */
  passesByGroup: Record<string, number>;
  /** Children launched over all runs of this campaign (the recorded keys are the source of truth; this is for the progress view). */
  launched: number;
}

export interface CampaignResult {
  campaignId: string;
  planned: number;
  counts: CampaignCounts;
  continuedAsNew: number;
  report: CampaignReportResult;
}
