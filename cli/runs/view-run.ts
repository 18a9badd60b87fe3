// The body of `physvec view` (cli/commands/view.ts declares its flags): read the sources, merge them
// into the index, then print it as JSON, write it as a static page (`--out`), or serve it on loopback.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stateDir } from '../../lib/paths.js';
import { uiQueryUrl } from '../../lib/reports/temporal-link.js';
import { BadInputError } from '../../lib/errors.js';
import { line, printJson } from '../output.js';
import { buildIndex, type RunIndex } from './view-index.js';
import { renderIndexPage } from './view-page.js';
import { serveIndex, servedHref } from './view-serve.js';
import { campaignReportFile, readReports, readStore, readVisibility, VIEW_QUERY } from './view-sources.js';

interface ViewFlags {
  out?: string;
  port: number;
  limit: number;
  json?: boolean;
}

async function collect(limit: number): Promise<{ index: RunIndex; problems: string[]; sources: string; store: string | null }> {
  const vis = await readVisibility(limit);
  const store = await readStore();
  const index = buildIndex({ visible: vis.rows, campaigns: store.campaigns, records: store.records, reports: readReports(), campaignReport: campaignReportFile });
  const problems = [vis.problem, store.file ? undefined : 'No results store yet (no campaign has run): campaigns come from Temporal only.'].filter((p): p is string => Boolean(p));
  const sources = ['Temporal visibility', store.file ? `the results store ${store.file}` : undefined, `the reports under ${path.join(stateDir(), 'reports')}`].filter(Boolean).join(', ');
  return { index, problems, sources, store: store.file };
}

const counts = (i: RunIndex) => `${i.campaigns.length} campaign(s) with ${i.campaigns.reduce((n, c) => n + c.children.length, 0)} run(s), ${i.runs.length} other run(s)`;

function writeStatic(outDir: string, index: RunIndex, facts: { problems: string[]; sources: string }): string {
  const dir = path.resolve(outDir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new BadInputError(`--out ${dir}: cannot create it (${(err as Error).message}); pick a writable directory`, dir, 'out');
  }
  // Links relative to the index, so the page works from any copy of the state directory beside it.
  const hrefOf = (file: string) => path.relative(dir, file).split(path.sep).map(encodeURIComponent).join('/');
  const file = path.join(dir, 'index.html');
  writeFileSync(file, renderIndexPage(index, { ...facts, generatedAt: new Date().toISOString(), hrefOf }));
  return file;
}

export async function viewRuns(f: ViewFlags): Promise<void> {
  if (f.json) {
    const c = await collect(f.limit);
    return printJson({ query: VIEW_QUERY, temporalUi: uiQueryUrl(VIEW_QUERY), problems: c.problems, store: c.store, ...c.index });
  }
  if (f.out !== undefined) {
    const c = await collect(f.limit);
    const file = writeStatic(f.out, c.index, c);
    for (const p of c.problems) line(p);
    line(`wrote ${file}: ${counts(c.index)}`);
    line(`all physvec runs in the Temporal UI: ${uiQueryUrl(VIEW_QUERY)}`);
    return;
  }
  const root = stateDir();
  await serveIndex({
    port: f.port,
    root,
    page: async () => {
      const c = await collect(f.limit);
      return renderIndexPage(c.index, { ...c, generatedAt: new Date().toISOString(), hrefOf: (file) => servedHref(root, file) });
    },
    onListening: (url) => {
      line(`physvec view: serving the index of runs and campaigns at ${url} (Ctrl-C stops)`);
      line(`all physvec runs in the Temporal UI: ${uiQueryUrl(VIEW_QUERY)}`);
    },
  });
}
