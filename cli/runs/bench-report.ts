// `bench report <id>`: where a campaign's report is and its summary table. The report is this host's
// copy in the state dir; a host that lacks it (another host wrote it) copies it from the bucket, with
// the evidence reports it links; it is rewritten from the results store when asked (--regenerate) or
// found nowhere.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BadInputError } from '../../lib/errors.js';
import { resultsStore } from '../../lib/results/results-config.js';
import type { ResultsStore } from '../../lib/results/results-store.js';
import { writeCampaignReport } from '../../lib/reports/campaign-report.js';
import { campaignDir, reportFolderName } from '../../lib/reports/dirs.js';
import { fetchFolder, folderUrl, reportBucket } from '../../lib/reports/published.js';
import { artifactStore } from '../../lib/artifacts/store.js';
import { stateDir } from '../../lib/paths.js';
import { printSummary, readReportJson, summaryRows } from './campaign-summary.js';
import { line, printJson, EXIT } from '../output.js';

/** The campaign's report folder and the evidence reports it links, copied from the bucket; false when the bucket has no report of it. */
async function fetchFromBucket(store: ResultsStore, campaignId: string): Promise<boolean> {
  const bucket = reportBucket(artifactStore());
  if (!bucket || !(await fetchFolder(bucket, campaignDir(campaignId)))) return false;
  for (const r of await store.campaignRuns(campaignId)) {
    const name = r.metrics?.reportPath && reportFolderName(r.metrics.reportPath);
    const dir = name && path.join(stateDir(), 'reports', name);
    if (dir && !existsSync(path.join(dir, 'report.json'))) await fetchFolder(bucket, dir);
  }
  process.stderr.write(`physvec: copied the report of ${campaignId} from ${folderUrl(bucket, campaignDir(campaignId))} into ${campaignDir(campaignId)}\n`);
  return true;
}

/** The report of a campaign on this host: the one here, the bucket's, or a fresh one from the store when asked or missing. */
export async function campaignReport(campaignId: string, regenerate: boolean) {
  const store = resultsStore();
  const rec = await store.getCampaign(campaignId);
  if (!rec) {
    throw new BadInputError(`no campaign ${campaignId} in the results store ${store.location} (list them with \`physvec results list\`; set PHYSVEC_STATE_DIR, or PHYSVEC_ARTIFACTS_URL for a cluster's bucket, if it lives elsewhere)`);
  }
  const jsonPath = path.join(campaignDir(campaignId), 'report.json');
  const htmlPath = path.join(campaignDir(campaignId), 'report.html');
  const here = !regenerate && rec.reportPath && (existsSync(jsonPath) || (await fetchFromBucket(store, campaignId)));
  if (!here) {
    const r = await writeCampaignReport(store, campaignId);
    return { htmlPath: r.htmlPath, jsonPath: r.jsonPath, regenerated: true };
  }
  return { htmlPath, jsonPath, regenerated: false };
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
