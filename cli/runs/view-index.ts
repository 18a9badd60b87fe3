// The index of `physvec view`: every run and campaign known to any of three places, merged by
// workflow id — Temporal visibility (live verdict, stage, build, times; the dev server forgets closed
// runs after 24 h), the results store (campaigns and their runs' metrics, kept for good) and the
// evidence reports on disk (report.json of every run that ended, campaign or not). Pure: the sources
// are read elsewhere (cli/runs/view-sources.ts), so the merge is tested without a server.
import type { CampaignRecord, RunRecord } from '../../schemas/campaign.js';

/** A run or campaign as Temporal visibility lists it. */
export interface VisibleRun {
  workflowId: string;
  runId: string;
  type: string;
  status: string;
  taskId: string | null;
  model: string | null;
  framework: string | null;
  verdict: string | null;
  stage: string | null;
  campaignId: string | null;
  build: string;
  startTime: string;
  closeTime: string | null;
}

/** The parts of an evidence report's report.json (activities/pipeline/report.ts) the index shows. */
export interface ReportSummary {
  workflowId: string;
  runId: string | null;
  status: string;
  taskId: string;
  model: string | null;
  stageReached: string | null;
  startedAt: string | null;
  endedAt: string | null;
  tokens: { inputTokens: number; outputTokens: number; costUsd: number } | null;
  /** Absolute path of the report's HTML page. */
  htmlFile: string;
}

export interface IndexRow {
  workflowId: string;
  runId: string | null;
  kind: 'run' | 'campaign';
  taskId: string | null;
  model: string | null;
  framework: string | null;
  verdict: string | null;
  stage: string | null;
  build: string | null;
  startTime: string | null;
  endTime: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  campaignId: string | null;
  /** Absolute path of its report.html, when one exists. */
  reportFile: string | null;
  /** Where the row's facts came from. */
  sources: ('temporal' | 'results' | 'report')[];
}

export interface IndexCampaign extends IndexRow {
  label: string | null;
  planned: number | null;
  children: IndexRow[];
}

export interface RunIndex {
  campaigns: IndexCampaign[];
  runs: IndexRow[];
}

const CAMPAIGN_TYPE = 'campaign';

function emptyRow(workflowId: string, kind: IndexRow['kind']): IndexRow {
  return { workflowId, runId: null, kind, taskId: null, model: null, framework: null, verdict: null, stage: null, build: null, startTime: null, endTime: null, tokensIn: null, tokensOut: null, costUsd: null, campaignId: null, reportFile: null, sources: [] };
}

/** Later sources fill what earlier ones left empty (null), never overwrite a fact. */
function fill(row: IndexRow, facts: Partial<IndexRow>, source: IndexRow['sources'][number]): void {
  const r = row as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(facts)) if (v !== null && v !== undefined && r[k] === null) r[k] = v;
  if (!row.sources.includes(source)) row.sources.push(source);
}

function fromVisibility(v: VisibleRun): Partial<IndexRow> {
  return {
    runId: v.runId, taskId: v.taskId, model: v.model, framework: v.framework, verdict: v.verdict ?? v.status.toLowerCase(), stage: v.stage,
    build: v.build, startTime: v.startTime, endTime: v.closeTime, campaignId: v.type === CAMPAIGN_TYPE ? null : v.campaignId,
  };
}

function fromRecord(r: RunRecord): Partial<IndexRow> {
  const m = r.metrics;
  return {
    taskId: r.taskId, model: r.model, framework: r.framework, campaignId: r.campaignId,
    verdict: m?.status ?? (r.outcome === 'skipped' ? 'skipped' : r.outcome === 'error' ? 'error' : null),
    tokensIn: m?.tokensIn ?? null, tokensOut: m?.tokensOut ?? null, costUsd: m?.costUsd ?? null, endTime: r.recordedAt,
  };
}

function fromReport(s: ReportSummary): Partial<IndexRow> {
  return {
    runId: s.runId, taskId: s.taskId, model: s.model, verdict: s.status, stage: s.stageReached, startTime: s.startedAt, endTime: s.endedAt,
    tokensIn: s.tokens?.inputTokens ?? null, tokensOut: s.tokens?.outputTokens ?? null, costUsd: s.tokens?.costUsd ?? null, reportFile: s.htmlFile,
  };
}

const newestFirst = (a: IndexRow, b: IndexRow) => (b.startTime ?? b.endTime ?? '').localeCompare(a.startTime ?? a.endTime ?? '') || a.workflowId.localeCompare(b.workflowId);

/** Merge the three sources: campaigns with their children grouped, then every other run, newest first. */
export function buildIndex(sources: { visible: VisibleRun[]; campaigns: CampaignRecord[]; records: RunRecord[]; reports: ReportSummary[]; campaignReport: (c: CampaignRecord) => string | null }): RunIndex {
  const rows = new Map<string, IndexRow>();
  const campaigns = new Map<string, IndexCampaign>();
  const campaignRow = (id: string) => {
    let c = campaigns.get(id);
    // Keyed by campaign id; `workflowId` becomes the campaign workflow's once a source names it.
    if (!c) campaigns.set(id, (c = { ...emptyRow(id, 'campaign'), campaignId: id, label: null, planned: null, children: [] }));
    return c;
  };
  const runRow = (id: string) => rows.get(id) ?? rows.set(id, emptyRow(id, 'run')).get(id)!;
  for (const v of sources.visible) {
    const row = v.type === CAMPAIGN_TYPE ? campaignRow(v.campaignId ?? v.workflowId) : runRow(v.workflowId);
    row.workflowId = v.workflowId;
    fill(row, fromVisibility(v), 'temporal');
  }
  for (const c of sources.campaigns) {
    const row = campaignRow(c.campaignId);
    if (!row.sources.includes('temporal')) row.workflowId = c.workflowId;
    fill(row, { verdict: c.status, startTime: c.startedAt, endTime: c.endedAt, reportFile: sources.campaignReport(c) }, 'results');
    row.label ??= c.label;
    row.planned ??= c.planned;
  }
  for (const r of sources.records) fill(runRow(r.workflowId), fromRecord(r), 'results');
  for (const s of sources.reports) fill(runRow(s.workflowId), fromReport(s), 'report');
  const loose: IndexRow[] = [];
  for (const row of rows.values()) {
    if (row.campaignId) campaignRow(row.campaignId).children.push(row);
    else loose.push(row);
  }
  for (const c of campaigns.values()) {
    c.children.sort((a, b) => a.workflowId.localeCompare(b.workflowId));
    const sum = (k: 'tokensIn' | 'tokensOut' | 'costUsd') => (c.children.some((x) => x[k] !== null) ? c.children.reduce((n, x) => n + (x[k] ?? 0), 0) : null);
    c.tokensIn = sum('tokensIn');
    c.tokensOut = sum('tokensOut');
    c.costUsd = sum('costUsd');
  }
  return { campaigns: [...campaigns.values()].sort(newestFirst), runs: loose.sort(newestFirst) };
}
