// physvec results list|export — the campaigns kept in the results store (`<stateDir>/results.sqlite`),
// and one campaign's runs as CSV or JSON for spreadsheets, notebooks and other tools.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { BadInputError } from '../../lib/errors.js';
import { line, printJson } from '../output.js';

/** The store's modules, imported when a sub-verb runs (better-sqlite3 among them): `--help` stays light. */
async function storeModules() {
  const [db, store, exp, spec, metrics] = await Promise.all([
    import('../../lib/results/db.js'), import('../../lib/results/store.js'), import('../../lib/results/export.js'), import('../../lib/results/spec.js'), import('../../lib/metrics/compute.js'),
  ]);
  return { ...db, ...store, ...exp, ...spec, ...metrics };
}

function storeOrExplain({ resultsDbExists, resultsDbPath, openResultsDb }: Awaited<ReturnType<typeof storeModules>>, campaignId?: string) {
  if (!resultsDbExists()) {
    if (campaignId) throw new BadInputError(`no campaign ${campaignId}: there is no results store at ${resultsDbPath()} yet (run a campaign first, or set PHYSVEC_STATE_DIR to the state directory that has one)`);
    return null;
  }
  return openResultsDb();
}

export function register(program: Command): void {
  const results = program.command('results').description('campaign results kept in the local results store');

  results
    .command('list')
    .description('list the campaigns in the results store, newest first')
    .option('--json', 'print one JSON document')
    .action(async (opts: { json?: boolean }) => {
      const m = await storeModules();
      const { listCampaigns, countRuns, computeCampaignMetrics, campaignRuns, passCriterionOf, resultsDbPath } = m;
      const db = storeOrExplain(m);
      const rows = (db ? listCampaigns(db) : []).map((c) => {
        const counts = countRuns(db!, c.campaignId);
        const overall = computeCampaignMetrics(campaignRuns(db!, c.campaignId), { passCriterion: passCriterionOf(c.spec) });
        const s = overall.totals.runs ? overall.groups.reduce((n, g) => n + g.executable, 0) / overall.totals.runs : null;
        return { ...c, spec: undefined, runs: counts, S: s, costUsd: overall.totals.costUsd };
      });
      if (opts.json) return printJson({ store: resultsDbPath(), campaigns: rows });
      if (rows.length === 0) return line(`no campaigns in ${resultsDbPath()}`);
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
      const { requireCampaign, campaignRuns, runsToCsv, campaignToJson, computeCampaignMetrics, passCriterionOf } = m;
      const db = storeOrExplain(m, campaignId)!;
      const campaign = requireCampaign(db, campaignId);
      const runs = campaignRuns(db, campaignId);
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
