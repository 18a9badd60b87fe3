// The SQLite results store's reads and idempotent writes (synchronous; sqlite-results.ts is its
// ResultsStore face). Temporal's dev server forgets closed workflows
// after 24 h; this store keeps every campaign and every run so campaigns can be compared over time.
// Every write is an upsert keyed by campaign id or (campaign id, run key): an activity retried after
// it succeeded, or a continued campaign recording a run twice, leaves one row.
import { BadInputError, badInputFromZod } from '../errors.js';
import { CampaignRecord, RunMetrics, RunRecord } from '../../schemas/campaign.js';
import type { Db } from './db.js';
import { unknownCampaignError, type OpenCampaign } from './results-store.js';

interface CampaignRow {
  campaign_id: string;
  workflow_id: string;
  schedule_id: string | null;
  label: string | null;
  spec_json: string;
  status: CampaignRecord['status'];
  started_at: string;
  ended_at: string | null;
  planned: number;
  report_path: string | null;
}

interface RunRow {
  campaign_id: string;
  key: string;
  task_id: string;
  task_file: string;
  topic: string;
  model: string;
  framework: string;
  trial: number;
  workflow_id: string;
  outcome: string;
  recorded_at: string;
  metrics_json: string | null;
}

const now = () => new Date().toISOString();
const bit = (b: boolean | undefined | null) => (b == null ? null : b ? 1 : 0);

function toCampaign(r: CampaignRow): CampaignRecord {
  return {
    campaignId: r.campaign_id,
    workflowId: r.workflow_id,
    scheduleId: r.schedule_id,
    label: r.label,
    spec: JSON.parse(r.spec_json),
    status: r.status,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    planned: r.planned,
    reportPath: r.report_path,
  };
}

function toRun(r: RunRow): RunRecord {
  return RunRecord.parse({
    key: r.key,
    taskId: r.task_id,
    taskFile: r.task_file,
    topic: r.topic,
    model: r.model,
    framework: r.framework,
    trial: r.trial,
    campaignId: r.campaign_id,
    workflowId: r.workflow_id,
    outcome: r.outcome,
    metrics: r.metrics_json ? RunMetrics.parse(JSON.parse(r.metrics_json)) : null,
    recordedAt: r.recorded_at,
  });
}

/**
 * Open (or re-open) a campaign. A campaign opened again — a retried activity, a resumed campaign — keeps
 * its start time and its recorded runs; it is running again until closed.
 */
export function upsertCampaign(db: Db, rec: OpenCampaign, at: string = now()): void {
  if (!rec.campaignId) throw new BadInputError('openCampaign: campaignId is empty; pass the campaign id (the workflow id by default)');
  db.prepare(`
    INSERT INTO campaigns (campaign_id, workflow_id, schedule_id, label, spec_json, status, started_at, ended_at, planned, report_path)
    VALUES (@campaignId, @workflowId, @scheduleId, @label, @specJson, 'running', @now, NULL, @planned, NULL)
    ON CONFLICT (campaign_id) DO UPDATE SET
      workflow_id = excluded.workflow_id, schedule_id = excluded.schedule_id, label = excluded.label,
      spec_json = excluded.spec_json, planned = excluded.planned, status = 'running', ended_at = NULL
  `).run({
    campaignId: rec.campaignId,
    workflowId: rec.workflowId,
    scheduleId: rec.scheduleId ?? null,
    label: rec.label ?? null,
    specJson: JSON.stringify(rec.spec ?? null),
    now: at,
    planned: rec.planned,
  });
}

/** Record one run. A `skipped` record never overwrites a run that actually happened. */
export function upsertRun(db: Db, input: RunRecord): void {
  const parsed = RunRecord.safeParse(input);
  if (!parsed.success) throw badInputFromZod(parsed.error, `run record ${(input as { key?: string })?.key ?? '?'}`);
  const rec = parsed.data;
  if (!db.prepare('SELECT 1 FROM campaigns WHERE campaign_id = ?').get(rec.campaignId)) {
    throw new BadInputError(`recordRun: campaign ${rec.campaignId} was never opened; call openCampaign before recording its runs`, undefined, 'campaignId');
  }
  const m = rec.metrics;
  db.prepare(`
    INSERT INTO runs (campaign_id, key, task_id, task_file, topic, model, framework, trial, workflow_id, outcome, recorded_at,
      status, executable, executable_at_iteration, iterations, unit_accuracy, integration_accuracy, tokens_in, tokens_out,
      tool_calls, llm_calls, cost_usd, scientific_completed, scientific_iteration, wall_ms, scripted, metrics_json)
    VALUES (@campaignId, @key, @taskId, @taskFile, @topic, @model, @framework, @trial, @workflowId, @outcome, @recordedAt,
      @status, @executable, @executableAtIteration, @iterations, @unitAccuracy, @integrationAccuracy, @tokensIn, @tokensOut,
      @toolCalls, @llmCalls, @costUsd, @scientificCompleted, @scientificIteration, @wallMs, @scripted, @metricsJson)
    ON CONFLICT (campaign_id, key) DO UPDATE SET
      task_id = excluded.task_id, task_file = excluded.task_file, topic = excluded.topic, model = excluded.model,
      framework = excluded.framework, trial = excluded.trial, workflow_id = excluded.workflow_id, outcome = excluded.outcome,
      recorded_at = excluded.recorded_at, status = excluded.status, executable = excluded.executable,
      executable_at_iteration = excluded.executable_at_iteration, iterations = excluded.iterations,
      unit_accuracy = excluded.unit_accuracy, integration_accuracy = excluded.integration_accuracy,
      tokens_in = excluded.tokens_in, tokens_out = excluded.tokens_out, tool_calls = excluded.tool_calls,
      llm_calls = excluded.llm_calls, cost_usd = excluded.cost_usd, scientific_completed = excluded.scientific_completed,
      scientific_iteration = excluded.scientific_iteration, wall_ms = excluded.wall_ms, scripted = excluded.scripted,
      metrics_json = excluded.metrics_json
    WHERE excluded.outcome <> 'skipped' OR runs.outcome = 'skipped'
  `).run({
    campaignId: rec.campaignId,
    key: rec.key,
    taskId: rec.taskId,
    taskFile: rec.taskFile,
    topic: rec.topic,
    model: rec.model,
    framework: rec.framework,
    trial: rec.trial,
    workflowId: rec.workflowId,
    outcome: rec.outcome,
    recordedAt: rec.recordedAt,
    status: m?.status ?? null,
    executable: bit(m?.executable),
    executableAtIteration: m?.executableAtIteration ?? null,
    iterations: m?.iterations ?? null,
    unitAccuracy: m?.unitAccuracy ?? null,
    integrationAccuracy: m?.integrationAccuracy ?? null,
    tokensIn: m?.tokensIn ?? null,
    tokensOut: m?.tokensOut ?? null,
    toolCalls: m?.toolCalls ?? null,
    llmCalls: m?.llmCalls ?? null,
    costUsd: m?.costUsd ?? null,
    scientificCompleted: bit(m?.scientificCompleted),
    scientificIteration: m?.scientificIteration ?? null,
    wallMs: m?.wallMs ?? null,
    scripted: bit(m?.scripted),
    metricsJson: m ? JSON.stringify(m) : null,
  });
}

export function recordedKeys(db: Db, campaignId: string): string[] {
  return (db.prepare('SELECT key FROM runs WHERE campaign_id = ? ORDER BY key').all(campaignId) as { key: string }[]).map((r) => r.key);
}

/** Close a campaign. Closing again keeps the first end time (a retried activity changes nothing). */
export function closeCampaign(db: Db, campaignId: string, status: 'completed' | 'failed', at: string = now()): void {
  const r = db.prepare(`
    UPDATE campaigns SET status = @status, ended_at = COALESCE(CASE WHEN status = @status THEN ended_at END, @now)
    WHERE campaign_id = @campaignId
  `).run({ campaignId, status, now: at });
  if (r.changes === 0) throw unknownCampaign(db, campaignId);
}

export function setReportPath(db: Db, campaignId: string, reportPath: string): void {
  db.prepare('UPDATE campaigns SET report_path = ? WHERE campaign_id = ?').run(reportPath, campaignId);
}

export function getCampaign(db: Db, campaignId: string): CampaignRecord | null {
  const r = db.prepare('SELECT * FROM campaigns WHERE campaign_id = ?').get(campaignId) as CampaignRow | undefined;
  return r ? toCampaign(r) : null;
}

/** The campaign, or a BadInputError naming the campaigns the store knows. */
function requireCampaign(db: Db, campaignId: string): CampaignRecord {
  const c = getCampaign(db, campaignId);
  if (!c) throw unknownCampaign(db, campaignId);
  return c;
}

function unknownCampaign(db: Db, campaignId: string): BadInputError {
  return unknownCampaignError(listCampaigns(db).map((c) => c.campaignId), campaignId);
}

/** All campaigns, newest first. */
export function listCampaigns(db: Db): CampaignRecord[] {
  return (db.prepare('SELECT * FROM campaigns ORDER BY started_at DESC, campaign_id DESC').all() as CampaignRow[]).map(toCampaign);
}

/** Forget `keys` of a campaign (in one transaction). */
export function deleteRuns(db: Db, campaignId: string, keys: readonly string[]): void {
  const del = db.prepare('DELETE FROM runs WHERE campaign_id = ? AND key = ?');
  db.transaction(() => {
    for (const k of keys) del.run(campaignId, k);
  })();
}

/** Runs of a campaign in a stable order (task, model, framework, trial). */
export function campaignRuns(db: Db, campaignId: string): RunRecord[] {
  return (db.prepare('SELECT * FROM runs WHERE campaign_id = ? ORDER BY topic, task_id, model, framework, trial, key').all(campaignId) as RunRow[]).map(toRun);
}

/**
 * The campaign to compare with: the latest completed campaign of the same schedule that started
 * before this one; for a campaign without a schedule (or the first of its schedule), the latest of
 * the same label. Equal start times (same millisecond) fall back to the order of opening.
 */
export function previousCampaign(db: Db, campaignId: string): CampaignRecord | null {
  const c = requireCampaign(db, campaignId);
  const { rowid } = db.prepare('SELECT rowid FROM campaigns WHERE campaign_id = ?').get(campaignId) as { rowid: number };
  const pick = (column: 'schedule_id' | 'label', value: string | null) =>
    value == null
      ? undefined
      : (db.prepare(`
          SELECT * FROM campaigns
          WHERE ${column} = @value AND campaign_id <> @id AND status = 'completed' AND ended_at IS NOT NULL
            AND (started_at < @startedAt OR (started_at = @startedAt AND rowid < @rowid))
          ORDER BY started_at DESC, rowid DESC LIMIT 1
        `).get({ value, id: c.campaignId, startedAt: c.startedAt, rowid }) as CampaignRow | undefined);
  const row = pick('schedule_id', c.scheduleId) ?? pick('label', c.label);
  return row ? toCampaign(row) : null;
}
