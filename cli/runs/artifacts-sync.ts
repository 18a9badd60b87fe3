// `physvec artifacts sync`: every file of a local store copied to the same key in a bucket, a few at
// a time, each streamed (multipart for a large checkpoint). A key already in the bucket is skipped:
// content-addressed keys hold the same bytes wherever they are, and run pins are write-once. The state
// dir's results and reports go too (issue 29.6), so a user moving to a cluster loses nothing: the
// SQLite results store's campaigns and runs become the bucket's results/ records, and each report
// folder (reports/<run>/, campaigns/<campaign>/) is mirrored where `physvec report` on any host looks.
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { BadInputError } from '../../lib/errors.js';
import { artifactsDir, stateDir } from '../../lib/paths.js';
import { bucketAt, s3Backend } from '../../lib/artifacts/store-config.js';
import type { S3Backend } from '../../lib/artifacts/s3-backend.js';
import { joinKey } from '../../lib/artifacts/blob-backend.js';
import { SqliteResultsStore } from '../../lib/results/sqlite-results.js';
import { BucketResultsStore } from '../../lib/results/bucket-results.js';
import { publishFolder } from '../../lib/reports/published.js';
import { mapLimit } from '../../lib/toolchains/map-limit.js';
import { line, printJson } from '../output.js';

const PARALLEL = 4;

/** Every stored file under `dir` as [key, path]; the spool and temp files of writes in flight are not artifacts. */
async function* storedFiles(dir: string, rel = ''): AsyncGenerator<[string, string]> {
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    if (e.name === '.incoming' || e.name.endsWith('.tmp')) continue;
    const file = path.join(dir, e.name);
    if (e.isDirectory()) yield* storedFiles(file, `${rel}${e.name}/`);
    else if (e.isFile()) yield [`${rel}${e.name}`, file];
  }
}

/** Each report folder of the state dir (reports/*, campaigns/*) not yet in the bucket, mirrored; the campaigns' report URLs. */
async function syncReports(bucket: S3Backend, state: string): Promise<{ folders: number; copied: number; campaignUrls: Map<string, string> }> {
  const folders: string[] = [];
  for (const kind of ['reports', 'campaigns']) {
    const root = path.join(state, kind);
    if (!existsSync(root)) continue;
    for (const e of await fs.readdir(root, { withFileTypes: true })) if (e.isDirectory()) folders.push(path.join(root, e.name));
  }
  const campaignUrls = new Map<string, string>();
  const copied = await mapLimit(folders, PARALLEL, async (dir) => {
    const key = joinKey(...path.relative(state, dir).split(path.sep));
    const fresh = (await bucket.list(key)).length === 0;
    if (fresh) await publishFolder(bucket, dir);
    if (path.basename(path.dirname(dir)) === 'campaigns') campaignUrls.set(path.basename(dir), bucket.describe(`${key}/report.html`));
    return fresh;
  });
  return { folders: folders.length, copied: copied.filter(Boolean).length, campaignUrls };
}

/** The state dir's SQLite results, copied record by record into the bucket's results/ (what is there stays). */
async function syncResults(bucket: S3Backend, campaignUrls: Map<string, string>) {
  const local = new SqliteResultsStore();
  if (!local.exists()) return null;
  const target = new BucketResultsStore(bucket.child('results'));
  const counts = { store: local.location, campaigns: 0, campaignsCopied: 0, runs: 0, runsCopied: 0 };
  for (const c of await local.listCampaigns()) {
    const runs = await local.campaignRuns(c.campaignId);
    // A report mirrored above is found at its bucket address from any host; the old path was this host's.
    const url = c.reportPath ? campaignUrls.get(path.basename(path.dirname(c.reportPath))) : undefined;
    const done = await target.importCampaign({ ...c, reportPath: url ?? c.reportPath }, runs);
    counts.campaigns++;
    counts.runs += runs.length;
    counts.campaignsCopied += done.campaign ? 1 : 0;
    counts.runsCopied += done.runs;
  }
  return counts;
}

export async function syncArtifacts(opts: { to: string; from?: string; json?: boolean }): Promise<void> {
  const from = path.resolve(opts.from ?? artifactsDir());
  if (!existsSync(from)) throw new BadInputError(`--from ${from}: no such directory; give the artifact store of a state dir (<state dir>/artifacts)`, from, '--from');
  const bucket = s3Backend(bucketAt(opts.to, '--to'), from);
  const counts = { objects: 0, copied: 0, skipped: 0, copiedBytes: 0, totalBytes: 0 };
  const inFlight = new Set<Promise<void>>();
  for await (const [key, file] of storedFiles(from)) {
    const job = (async () => {
      const { size } = await fs.stat(file);
      const copied = await bucket.storeFile(key, file, size, false);
      counts.objects++;
      counts.totalBytes += size;
      if (copied) {
        counts.copied++;
        counts.copiedBytes += size;
      } else counts.skipped++;
    })();
    inFlight.add(job);
    void job.finally(() => inFlight.delete(job)).catch(() => undefined);
    if (inFlight.size >= PARALLEL) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  const { campaignUrls, ...reports } = await syncReports(bucket, stateDir());
  const results = await syncResults(bucket, campaignUrls);
  if (opts.json) return printJson({ from, to: bucket.location, ...counts, results, reports });
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
  line(`synced ${from} to ${bucket.location}: ${counts.objects} objects (${mib(counts.totalBytes)}); ${counts.copied} copied (${mib(counts.copiedBytes)}), ${counts.skipped} already there`);
  if (results) line(`results ${results.store} to ${bucket.location}/results: ${results.campaigns} campaigns (${results.campaignsCopied} copied), ${results.runs} runs (${results.runsCopied} copied)`);
  if (reports.folders) line(`reports of ${stateDir()}: ${reports.folders} folders, ${reports.copied} copied, ${reports.folders - reports.copied} already there`);
}
