// What `physvec view` reads: Temporal visibility (runs and campaigns, by their search attributes),
// the results store (campaigns and their runs' metrics) and the evidence reports on disk. A source
// that cannot be read is said on the page (an unreachable server, no store yet); the others still show.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { connectClient, TemporalUnreachableError } from '../../lib/temporal/connection.js';
import { resultsStore } from '../../lib/results/results-config.js';
import { SqliteResultsStore } from '../../lib/results/sqlite-results.js';
import { campaignDir } from '../../lib/reports/dirs.js';
import { runBuild } from '../../lib/temporal/run-build.js';
import { stateDir } from '../../lib/paths.js';
import { SA } from '../../temporal-config/search-attributes.js';
import type { CampaignRecord, RunRecord } from '../../schemas/campaign.js';
import type { ReportSummary, VisibleRun } from './view-index.js';

/** Workflow types the index lists: one reproduction of one task (PhysVEC, smoke, the baselines) and campaigns. */
const VIEW_TYPES = ['reproduction', 'smokeReproduction', 'reactBaseline', 'oneShotBaseline', 'campaign'] as const;
export const VIEW_QUERY = `WorkflowType IN (${VIEW_TYPES.map((t) => `"${t}"`).join(', ')})`;

function visible(w: WorkflowExecutionInfo): VisibleRun {
  const sa = w.typedSearchAttributes;
  return {
    workflowId: w.workflowId, runId: w.runId, type: w.type, status: w.status.name,
    taskId: sa.get(SA.TaskId) ?? null, model: sa.get(SA.Model) ?? null, framework: sa.get(SA.Framework) ?? null,
    verdict: sa.get(SA.Verdict) ?? null, stage: sa.get(SA.Stage) ?? null, campaignId: sa.get(SA.CampaignId) ?? null,
    build: runBuild(w.searchAttributes), startTime: w.startTime.toISOString(), closeTime: w.closeTime?.toISOString() ?? null,
  };
}

/** The newest `limit` runs and campaigns Temporal lists, or why none could be listed. */
export async function readVisibility(limit: number): Promise<{ rows: VisibleRun[]; problem?: string }> {
  let conn;
  try {
    conn = await connectClient();
  } catch (err) {
    if (err instanceof TemporalUnreachableError) return { rows: [], problem: `${err.message}: only the results store and the reports on disk are listed` };
    throw err;
  }
  try {
    const rows: VisibleRun[] = [];
    for await (const w of conn.client.workflow.list({ query: VIEW_QUERY, pageSize: Math.min(limit, 200) })) {
      rows.push(visible(w));
      if (rows.length >= limit) break;
    }
    return { rows };
  } finally {
    await conn.connection.close();
  }
}

/** Every campaign in the results store with its runs, or nothing (no SQLite store yet: none is created). */
export async function readStore(): Promise<{ campaigns: CampaignRecord[]; records: RunRecord[]; file: string | null }> {
  const store = resultsStore();
  if (store instanceof SqliteResultsStore && !store.exists()) return { campaigns: [], records: [], file: null };
  const campaigns = await store.listCampaigns();
  const records: RunRecord[] = [];
  for (const c of campaigns) records.push(...(await store.campaignRuns(c.campaignId)));
  return { campaigns, records, file: store.location };
}

/** The campaign's report on this host (its folder in the state dir, else the recorded path when it is a file here). */
export function campaignReportFile(c: CampaignRecord): string | null {
  const here = path.join(campaignDir(c.campaignId), 'report.html');
  if (existsSync(here)) return here;
  return c.reportPath && existsSync(c.reportPath) ? c.reportPath : null;
}

/** The fields of report.json the index shows; anything else in it is ignored. */
const ReportJson = z.object({
  workflowId: z.string(),
  runId: z.string().nullish(),
  status: z.string(),
  task: z.object({ id: z.string() }),
  models: z.object({ defaultModel: z.string() }).partial().nullish(),
  stageReached: z.string().nullish(),
  startedAt: z.string().nullish(),
  endedAt: z.string().nullish(),
  tokens: z.object({ inputTokens: z.number(), outputTokens: z.number(), costUsd: z.number() }).nullish(),
});

/** The evidence reports under `<stateDir>/reports/`; a folder without a readable report.json is skipped. */
export function readReports(root = path.join(stateDir(), 'reports')): ReportSummary[] {
  if (!existsSync(root)) return [];
  const out: ReportSummary[] = [];
  for (const dir of readdirSync(root)) {
    const file = path.join(root, dir, 'report.json');
    let parsed;
    try {
      parsed = ReportJson.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      continue;
    }
    if (!parsed.success) continue;
    const r = parsed.data;
    out.push({
      workflowId: r.workflowId, runId: r.runId ?? null, status: r.status, taskId: r.task.id, model: r.models?.defaultModel ?? null,
      stageReached: r.stageReached ?? null, startedAt: r.startedAt ?? null, endedAt: r.endedAt ?? null, tokens: r.tokens ?? null,
      htmlFile: path.join(root, dir, 'report.html'),
    });
  }
  return out;
}
