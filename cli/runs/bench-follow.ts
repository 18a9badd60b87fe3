// Following a campaign that `bench run` or `bench retry` started (or reattached to) to its end:
// workers in this process when none polls the queues, then the campaign's summary and report.
import { existsSync } from 'node:fs';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { CampaignSpec, RunKey } from '../../schemas/campaign.js';
import type { CampaignResult } from '../../workflows/campaign/progress.js';
import { uiUrl } from '../../lib/temporal/connection.js';
import { planByTopic } from '../../activities/campaign/plan.js';
import { withWorkersIfNeeded, type WorkerMode } from './workers-on-demand.js';
import { startCampaign } from './campaign-run.js';
import { followCampaign, followMode, progressText } from './campaign-follow.js';
import { printSummary, readReportJson, summaryRows } from './campaign-summary.js';
import { campaignReport } from './bench-report.js';
import { printJson } from '../output.js';

export type FollowOpts = { workers: string; wait: boolean; json?: boolean };

/** Follow a campaign to its end (workers in this process when none polls) and print its summary. */
export async function followToReport(client: Client, namespace: string, handle: WorkflowHandle, campaignId: string, opts: FollowOpts, say: (s: string) => void, watch = false): Promise<void> {
  const t0 = Date.now();
  const result = (await withWorkersIfNeeded(client, namespace, opts.workers as WorkerMode, () => followCampaign(handle, followMode(opts.json)), say, watch ? handle : undefined)) as CampaignResult;
  // The orchestration worker may be on another host: its paths are then this host's copy (from the bucket).
  if (!existsSync(result.report.jsonPath)) {
    const { htmlPath, jsonPath } = await campaignReport(campaignId, false);
    Object.assign(result.report, { htmlPath, jsonPath });
  }
  const report = readReportJson(result.report.jsonPath);
  if (opts.json) {
    printJson({ ...result, wallMs: Date.now() - t0, ui: uiUrl(campaignId), summary: summaryRows(report.metrics) });
    return;
  }
  say(`campaign ${campaignId} completed in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${progressText({ ...result.counts, campaignId, planned: result.planned, running: 0, continuedAsNew: result.continuedAsNew, inFlight: [] })}`);
  printSummary(report);
  say(`report: ${result.report.htmlPath}`);
  say(`        ${result.report.jsonPath}`);
}

export async function startAndFollow(client: Client, namespace: string, spec: CampaignSpec, plan: RunKey[], opts: FollowOpts, say: (s: string) => void, retried?: string[]): Promise<void> {
  const { handle, campaignId } = await startCampaign(client, spec);
  say(`campaign ${campaignId}: ${plan.length} runs (${new Set(plan.map((k) => k.taskId)).size} tasks × ${spec.models.length} model(s) × ${spec.frameworks.join('/')} × ${spec.trials} trial(s)), concurrency ${spec.concurrency}; by topic: ${Object.entries(planByTopic(plan)).map(([t, n]) => `${t} ${n.tasks} tasks`).join(', ')}`);
  say(`UI: ${uiUrl(campaignId)}`);
  if (!opts.wait) {
    if (opts.json) printJson({ campaignId, workflowId: campaignId, planned: plan.length, plannedByTopic: planByTopic(plan), ...(retried ? { retried } : {}), ui: uiUrl(campaignId) });
    else say(`follow it with \`physvec bench status ${campaignId}\``);
    return;
  }
  await followToReport(client, namespace, handle, campaignId, opts, say, true);
}

/** The flags that were given (a resumed campaign keeps its own value for the others). */
export function pickDefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
