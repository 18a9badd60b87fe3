// `bench report <id>`: where a campaign's report is and its summary table, the report rewritten
// from the results store when asked (--regenerate) or missing.
import { existsSync } from 'node:fs';
import { BadInputError } from '../../lib/errors.js';
import { openResultsDb, resultsDbExists, resultsDbPath } from '../../lib/results/db.js';
import { getCampaign } from '../../lib/results/store.js';
import { writeCampaignReport } from '../../lib/reports/campaign-report.js';
import { campaignDir } from '../../lib/reports/dirs.js';
import { printSummary, readReportJson, summaryRows } from './campaign-summary.js';
import { line, printJson, EXIT } from '../output.js';

/** The report of a campaign: the one on disk, or a fresh one from the store when asked or missing. */
async function campaignReport(campaignId: string, regenerate: boolean) {
  const db = resultsDbExists() ? openResultsDb() : null;
  const rec = db ? getCampaign(db, campaignId) : null;
  if (!db || !rec) {
    throw new BadInputError(`no campaign ${campaignId} in the results store ${resultsDbPath()} (list them with \`physvec results list\`; set PHYSVEC_STATE_DIR if it lives elsewhere)`);
  }
  const jsonPath = `${campaignDir(campaignId)}/report.json`;
  if (regenerate || !existsSync(jsonPath) || !rec.reportPath) {
    const r = await writeCampaignReport(db, campaignId);
    return { htmlPath: r.htmlPath, jsonPath: r.jsonPath, regenerated: true };
  }
  return { htmlPath: rec.reportPath, jsonPath, regenerated: false };
}

export async function benchReport(campaignId: string, opts: { regenerate?: boolean; json?: boolean }): Promise<void> {
  const r = await campaignReport(campaignId, !!opts.regenerate);
  const report = readReportJson(r.jsonPath);
  if (opts.json) return printJson({ campaignId, ...r, status: report.campaign.status, summary: summaryRows(report.metrics), comparison: report.comparison, notices: report.notices });
  line(`campaign ${campaignId} (${report.campaign.status})${r.regenerated ? ': report written now' : ''}`);
  printSummary(report);
  line(`report: ${r.htmlPath}`);
  line(`        ${r.jsonPath}`);
  if (report.campaign.status === 'failed') process.exitCode = EXIT.failed;
}
