// physvec results list|export — the campaigns kept in the results store (`<stateDir>/results.sqlite`,
// or the bucket's results/ when the artifact store is a bucket: lib/results/results-config.ts), and
// one campaign's runs as CSV or JSON for spreadsheets, notebooks and other tools.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { BadInputError } from '../../lib/errors.js';
import { line, printJson } from '../output.js';

/** The store's modules, imported when a sub-verb runs (better-sqlite3 and the AWS SDK among them): `--help` stays light. */
async function storeModules() {
  const [config, store, sqlite, exp, spec, metrics] = await Promise.all([
    import('../../lib/results/results-config.js'), import('../../lib/results/results-store.js'), import('../../lib/results/sqlite-results.js'),
    import('../../lib/results/export.js'), import('../../lib/results/spec.js'), import('../../lib/metrics/compute.js'),
  ]);
  return { ...config, ...store, ...sqlite, ...exp, ...spec, ...metrics };
}

type Modules = Awaited<ReturnType<typeof storeModules>>;

/** The configured store; a SQLite store with no file yet for a campaign asked by id is said plainly. */
function storeOrExplain({ resultsStore, SqliteResultsStore }: Modules, campaignId?: string) {
  const store = resultsStore();
  if (campaignId && store instanceof SqliteResultsStore && !store.exists()) {
    throw new BadInputError(`no campaign ${campaignId}: there is no results store at ${store.location} yet (run a campaign first, set PHYSVEC_STATE_DIR to the state directory that has one, or PHYSVEC_ARTIFACTS_URL / PHYSVEC_RESULTS_URL to the cluster's bucket)`);
  }
  return store;
}

/** On a host whose store is a bucket, a SQLite store left in its state dir is pointed out (on stderr): its campaigns are not listed. */
async function mentionLocalStore({ SqliteResultsStore }: Modules, store: { location: string }): Promise<void> {
  const local = new SqliteResultsStore();
  if (store instanceof SqliteResultsStore || !local.exists()) return;
  const n = (await local.listCampaigns()).length;
  if (n) process.stderr.write(`physvec: ${local.location} holds ${n} campaign(s) of this host's own results store, not listed here; \`physvec artifacts sync --to ${store.location.replace(/\/results$/, '')}\` copies them into the bucket\n`);
}

export function register(program: Command): void {
  const results = program.command('results').description('campaign results kept in the results store (SQLite in the state dir, or the bucket)');

  results
    .command('list')
    .description('list the campaigns in the results store, newest first')
    .option('--json', 'print one JSON document')
    .action(async (opts: { json?: boolean }) => {
      const m = await storeModules();
      const { computeCampaignMetrics, passCriterionOf } = m;
      const store = storeOrExplain(m);
      const rows = [];
      for (const c of await store.listCampaigns()) {
        const runs = await store.campaignRuns(c.campaignId);
        const counts = m.countOf(runs);
        const overall = computeCampaignMetrics(runs, { passCriterion: passCriterionOf(c.spec) });
        const s = overall.totals.runs ? overall.groups.reduce((n, g) => n + g.executable, 0) / overall.totals.runs : null;
        rows.push({ ...c, spec: undefined, runs: counts, S: s, costUsd: overall.totals.costUsd });
      }
      await mentionLocalStore(m, store);
      if (opts.json) return printJson({ store: store.location, campaigns: rows });
      if (rows.length === 0) return line(`no campaigns in ${store.location}`);
      for (const r of rows) {
        const s = r.S == null ? '–' : `${(100 * r.S).toFixed(0)} %`;
        line(`${r.campaignId}  ${r.status.padEnd(9)} ${r.startedAt}  runs ${r.runs.recorded}/${r.planned}  S ${s}  $${r.costUsd.toFixed(4)}${r.scheduleId ? `  schedule ${r.scheduleId}` : ''}${r.label ? `  "${r.label}"` : ''}`);
        if (r.reportPath) line(`  report: ${r.reportPath}`);
      }
    });

  results
    .command('export <campaignId>')
    .description("write a campaign's runs (CSV: one row per run) or runs + metrics (JSON)")
    .option('--format <format>', 'csv or json', 'csv')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (campaignId: string, opts: { format: string; out?: string }) => {
      if (opts.format !== 'csv' && opts.format !== 'json') throw new BadInputError(`--format ${opts.format}: use csv or json`, undefined, 'format');
      const m = await storeModules();
      const { requireCampaign, runsToCsv, campaignToJson, computeCampaignMetrics, passCriterionOf } = m;
      const store = storeOrExplain(m, campaignId);
      const campaign = await requireCampaign(store, campaignId);
      const runs = await store.campaignRuns(campaignId);
      const text = opts.format === 'csv'
        ? runsToCsv(runs)
        : campaignToJson(campaign, runs, computeCampaignMetrics(runs, { passCriterion: passCriterionOf(campaign.spec), planned: campaign.planned }));
      if (!opts.out) return void process.stdout.write(text);
      const out = path.resolve(opts.out);
      try {
        writeFileSync(out, text);
      } catch (err) {
        throw new BadInputError(`--out ${out}: cannot write (${(err as Error).message}); pick a writable path`, out, 'out');
      }
      process.stderr.write(`physvec: wrote ${runs.length} runs of ${campaignId} to ${out}\n`);
    });
}
