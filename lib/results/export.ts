// `physvec results export`: a campaign's runs as CSV (one row per run, metrics flattened) or as one
// JSON document (campaign record, runs, the paper's metrics).
import type { CampaignRecord, RunRecord } from '../../schemas/campaign.js';
import type { CampaignMetrics } from '../metrics/types.js';

export const CSV_COLUMNS = [
  'campaignId', 'key', 'taskId', 'topic', 'model', 'framework', 'trial', 'outcome', 'workflowId', 'recordedAt',
  'status', 'executable', 'executableAtIteration', 'iterations', 'unitAccuracy', 'integrationAccuracy',
  'tokensIn', 'tokensOut', 'toolCalls', 'llmCalls', 'costUsd', 'scientificCompleted', 'scientificIteration',
  'assertionsPassed', 'assertionsTotal', 'rubricGrade', 'wallMs', 'scripted', 'taskFile', 'reportPath', 'message',
] as const;

/** RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled. */
function cell(v: unknown): string {
  if (v == null) return '';
  const s = typeof v === 'string' ? v : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function runsToCsv(runs: RunRecord[]): string {
  const rows = runs.map((r) => {
    const flat: Record<string, unknown> = { ...r, ...(r.metrics ?? {}) };
    // The run's framework is the key's; metrics repeat it.
    flat.framework = r.framework;
    return CSV_COLUMNS.map((c) => cell(flat[c])).join(',');
  });
  return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}

export function campaignToJson(campaign: CampaignRecord, runs: RunRecord[], metrics: CampaignMetrics): string {
  return JSON.stringify({ kind: 'physvec.campaign-results', version: 1, campaign, metrics, runs }, null, 2) + '\n';
}
