// `physvec results export`: a campaign's runs as CSV (one row per run, metrics flattened) or as one
// JSON document (campaign record, runs, the paper's metrics).
import { stringify } from 'csv-stringify/sync';
import type { CampaignRecord, RunRecord } from '../../schemas/campaign.js';
import type { CampaignMetrics } from '../metrics/types.js';

export const CSV_COLUMNS = [
  'campaignId', 'key', 'taskId', 'topic', 'model', 'framework', 'trial', 'outcome', 'workflowId', 'recordedAt',
  'status', 'executable', 'executableAtIteration', 'iterations', 'unitAccuracy', 'integrationAccuracy',
  'tokensIn', 'tokensOut', 'toolCalls', 'llmCalls', 'costUsd', 'scientificCompleted', 'scientificIteration',
  'assertionsPassed', 'assertionsTotal', 'rubricGrade', 'wallMs', 'scripted', 'taskFile', 'reportPath', 'message',
] as const;

export function runsToCsv(runs: RunRecord[]): string {
  const rows = runs.map((r) => {
    const flat: Record<string, unknown> = { ...r, ...(r.metrics ?? {}) };
    // The run's framework is the key's; metrics repeat it.
    flat.framework = r.framework;
    return flat;
  });
  // RFC 4180 through csv-stringify; a lone \n or \r inside a cell is quoted too (csv-stringify only
  // quotes the record delimiter itself by default), booleans stay `true`/`false`.
  return stringify(rows, {
    header: true,
    columns: [...CSV_COLUMNS],
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
    cast: { boolean: (v) => String(v) },
  });
}

export function campaignToJson(campaign: CampaignRecord, runs: RunRecord[], metrics: CampaignMetrics): string {
  return JSON.stringify({ kind: 'physvec.campaign-results', version: 1, campaign, metrics, runs }, null, 2) + '\n';
}
