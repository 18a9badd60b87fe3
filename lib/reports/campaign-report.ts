// Writes a campaign's report: `<stateDir>/campaigns/<campaignId>/report.json` (metrics, records,
// comparison) and `report.html` (self-contained, five inline SVG figures), and remembers the path
// in the results store. Rewriting it is harmless: the same store yields the same report. With the
// artifact store in a bucket the folder is mirrored there (published.ts) and the store remembers its
// s3:// address, which means the same on every host.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CampaignReportResult } from '../../schemas/campaign.js';
import { campaignDir } from './dirs.js';
import { requireCampaign, type ResultsStore } from '../results/results-store.js';
import { artifactStore, type ArtifactStore } from '../artifacts/store.js';
import { publishFolder, reportBucket } from './published.js';
import { passCriterionOf } from '../results/spec.js';
import { computeCampaignMetrics } from '../metrics/compute.js';
import { compareMetrics } from '../metrics/regressions.js';
import { FIGURE_IDS, renderCampaignFigures } from './campaign-figures.js';
import { renderCampaignHtml } from './campaign-html.js';

export async function writeCampaignReport(store: ResultsStore, campaignId: string, opts: { python?: string; artifacts?: ArtifactStore } = {}): Promise<CampaignReportResult> {
  const campaign = await requireCampaign(store, campaignId);
  const records = await store.campaignRuns(campaignId);
  const metrics = computeCampaignMetrics(records, { passCriterion: passCriterionOf(campaign.spec), planned: campaign.planned });
  const previous = await store.previousCampaign(campaignId);
  const comparison = previous
    ? compareMetrics(computeCampaignMetrics(await store.campaignRuns(previous.campaignId), { passCriterion: passCriterionOf(previous.spec), planned: previous.planned }), metrics)
    : null;

  const dir = campaignDir(campaignId);
  const figures = await renderCampaignFigures(metrics, path.join(dir, 'figures'), opts.python);
  const notices = [
    metrics.totals.scripted ? 'Produced with the scripted model (recorded or hand-written LLM answers): execution, verification and metrics are real, the model is not.' : undefined,
    campaign.status === 'running' ? 'The campaign is still running: this report covers the runs recorded so far.' : undefined,
    records.length === 0 ? 'No run has been recorded for this campaign.' : undefined,
    ...figures.problems,
  ].filter((n): n is string => Boolean(n));
  const endMs = campaign.endedAt ? Date.parse(campaign.endedAt) : Date.now();
  const wallMs = Math.max(0, endMs - Date.parse(campaign.startedAt));
  const generatedAt = new Date().toISOString();
  const rendered = FIGURE_IDS.filter((id) => figures.svgs[id]);
  const regressions = comparison?.regressions ?? [];

  const htmlPath = path.join(dir, 'report.html');
  const jsonPath = path.join(dir, 'report.json');
  const json = {
    kind: 'physvec.campaign-report',
    version: 1,
    generatedAt,
    notices,
    campaign,
    wallMs,
    metrics,
    comparison: { previous: previous?.campaignId ?? null, ...(comparison ?? { regressions: [], improvements: [], comparedScopes: 0, onlyBefore: [], onlyAfter: [] }) },
    figures: { rendered, matplotlib: figures.matplotlib },
    records,
  };
  await fs.mkdir(dir, { recursive: true });
  // Write to a temporary name and rename, so a reader never sees half a report.
  await writeAtomic(jsonPath, JSON.stringify(json, null, 2) + '\n');
  await writeAtomic(htmlPath, renderCampaignHtml({ campaign, metrics, records, previous, comparison, svgs: figures.svgs, notices, wallMs, generatedAt, dir }));
  const bucket = reportBucket(opts.artifacts ?? artifactStore());
  await store.setReportPath(campaignId, bucket ? await publishFolder(bucket, dir) : htmlPath);
  return { campaignId, htmlPath, jsonPath, figures: rendered, comparedWith: previous?.campaignId ?? null, regressions };
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, text);
  await fs.rename(tmp, file);
}
