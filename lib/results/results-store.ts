// The results store as every caller sees it: campaigns and their runs, behind one async interface with
// two backends — SQLite in the state directory (sqlite-results.ts, the embedded default) and keyed
// objects in an S3-compatible bucket (bucket-results.ts), which several workers on several hosts
// write without a lock and any host reads. Both keep the same contract (tests/results/store-contract.test.ts).
import { BadInputError } from '../errors.js';
import type { CampaignRecord, RunRecord } from '../../schemas/campaign.js';

export interface OpenCampaign {
  campaignId: string;
  workflowId: string;
  scheduleId: string | null;
  label: string | null;
  spec: unknown;
  planned: number;
}

interface RunCounts {
  recorded: number;
  done: number;
  error: number;
  skipped: number;
}

export interface ResultsStore {
  /** Where the store is, for messages: a file or s3://bucket/prefix. */
  readonly location: string;
  /** Open (or re-open) a campaign: it keeps its start time and its runs, and is running until closed. */
  openCampaign(rec: OpenCampaign, at?: string): Promise<void>;
  /** Record one run (idempotent by run key); a `skipped` record never overwrites a run that happened. */
  recordRun(rec: RunRecord): Promise<void>;
  /** Run keys recorded for the campaign, sorted. */
  recordedKeys(campaignId: string): Promise<string[]>;
  /** Close a campaign; closing again with the same status keeps the first end time. */
  closeCampaign(campaignId: string, status: 'completed' | 'failed', at?: string): Promise<void>;
  setReportPath(campaignId: string, reportPath: string): Promise<void>;
  getCampaign(campaignId: string): Promise<CampaignRecord | null>;
  /** All campaigns, newest first. */
  listCampaigns(): Promise<CampaignRecord[]>;
  /** Runs of a campaign in a stable order (topic, task, model, framework, trial, key). */
  campaignRuns(campaignId: string): Promise<RunRecord[]>;
  /** The campaign a report compares with (see previousOf). */
  previousCampaign(campaignId: string): Promise<CampaignRecord | null>;
  /** Forget these runs, so a restarted campaign runs them again (`bench retry`). */
  forgetRuns(campaignId: string, keys: readonly string[]): Promise<void>;
}

/** The campaign, or a BadInputError naming the campaigns the store knows. */
export async function requireCampaign(store: ResultsStore, campaignId: string): Promise<CampaignRecord> {
  const c = await store.getCampaign(campaignId);
  if (!c) throw await unknownCampaign(store, campaignId);
  return c;
}

export async function unknownCampaign(store: ResultsStore, campaignId: string): Promise<BadInputError> {
  return unknownCampaignError((await store.listCampaigns()).map((c) => c.campaignId), campaignId);
}

export function unknownCampaignError(known: string[], campaignId: string): BadInputError {
  const list = known.length ? `known campaigns: ${known.slice(0, 20).join(', ')}${known.length > 20 ? `, … (${known.length} in all)` : ''}` : 'the store has no campaigns yet';
  return new BadInputError(`no campaign ${campaignId} in the results store; ${list} (\`physvec results list\` shows them)`, undefined, 'campaignId');
}

/** How many of `runs` ended each way. */
export function countOf(runs: readonly RunRecord[]): RunCounts {
  const n = (o: RunRecord['outcome']) => runs.filter((r) => r.outcome === o).length;
  return { recorded: runs.length, done: n('done'), error: n('error'), skipped: n('skipped') };
}

/** Newest first; equal start times: the later id first (the SQLite store's order of opening is not kept in a bucket). */
export function newestFirst(a: CampaignRecord, b: CampaignRecord): number {
  return a.startedAt === b.startedAt ? (a.campaignId < b.campaignId ? 1 : a.campaignId > b.campaignId ? -1 : 0) : a.startedAt < b.startedAt ? 1 : -1;
}

/**
 * The campaign to compare `c` with, among `all` (newest first): the latest completed campaign of the
 * same schedule that started before it; for a campaign without a schedule (or the first of its
 * schedule), the latest of the same label.
 */
export function previousOf(all: readonly CampaignRecord[], c: CampaignRecord): CampaignRecord | null {
  const before = (x: CampaignRecord) => newestFirst(c, x) < 0;
  const pick = (field: 'scheduleId' | 'label') =>
    c[field] == null ? undefined : all.find((x) => x[field] === c[field] && x.campaignId !== c.campaignId && x.status === 'completed' && x.endedAt != null && before(x));
  return pick('scheduleId') ?? pick('label') ?? null;
}

/** Runs in the store's stable order (what SQLite's ORDER BY topic, task_id, model, framework, trial, key gives). */
export function byRunOrder(a: RunRecord, b: RunRecord): number {
  for (const k of ['topic', 'taskId', 'model', 'framework'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (a.trial !== b.trial) return a.trial - b.trial;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
