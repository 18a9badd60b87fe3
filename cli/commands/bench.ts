// physvec bench run|status|report — benchmark campaigns: every selected task × model × framework ×
// trial as one child workflow, `--concurrency` at a time, recorded in the results store, ending in
// a campaign report (the paper's Figs. 5–7 from the runs). Workers start in this process when none
// polls the queues, as `reproduce` does.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { WorkflowNotFoundError } from '@temporalio/client';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { BadInputError } from '../../lib/errors.js';
import { openResultsDb, resultsDbExists, resultsDbPath } from '../../lib/results/db.js';
import { countRuns, getCampaign } from '../../lib/results/store.js';
import { campaignDir, writeCampaignReport } from '../../activities/reports/campaign-report.js';
import { withWorkersIfNeeded, type WorkerMode } from '../runs/workers-on-demand.js';
import { checkCampaign, loadCampaignSpecFile, specFromFlags } from '../runs/campaign-spec.js';
import { startCampaign } from '../runs/campaign-run.js';
import { followCampaign, followMode, progressText, queryProgress } from '../runs/campaign-follow.js';
import { printSummary, readReportJson, summaryRows } from '../runs/campaign-summary.js';
import { line, printJson, EXIT } from '../output.js';
import { badFlags, flagName } from '../flags.js';

const RunFlags = z.object({
  spec: z.string().optional(),
  tasks: z.string().optional(),
  topics: z.string().optional(),
  root: z.string().optional(),
  limit: z.coerce.number().int().positive().optional(),
  models: z.string().optional(),
  frameworks: z.string().optional(),
  trials: z.coerce.number().int().positive().optional(),
  concurrency: z.coerce.number().int().positive().optional(),
  stopAfterPasses: z.coerce.number().int().positive().optional(),
  passCriterion: z.enum(['executable', 'scientific']).optional(),
  childrenPerRun: z.coerce.number().int().positive().optional(),
  label: z.string().optional(),
  id: z.string().optional(),
  workers: z.enum(['auto', 'in-process', 'external']).default('auto'),
  wait: z.boolean().default(true),
  json: z.boolean().optional(),
});

function storeOrNull() {
  return resultsDbExists() ? openResultsDb() : null;
}

/** The report of a campaign: the one on disk, or a fresh one from the store when asked or missing. */
async function campaignReport(campaignId: string, regenerate: boolean) {
  const db = storeOrNull();
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

export function register(program: Command): void {
  const bench = program.command('bench').description('benchmark campaigns: tasks × models × frameworks × trials as durable child workflows');

  bench
    .command('run')
    .description('start a campaign (from --spec <campaign.json> or from flags) and follow it to its report')
    .option('--spec <file>', 'campaign JSON file (fields of CampaignInput: selection, models, frameworks, trials, concurrency, …)')
    .option('--tasks <substr,...>', 'keep tasks whose id contains any of these')
    .option('--topics <topic,...>', 'keep these topics (dmrg, nqs, qsim, dft)')
    .option('--root <dir>', 'dataset root: our suite (default data/tasks) or a QMP-Bench root')
    .option('--limit <n>', 'at most this many tasks')
    .option('--models <provider:model,...>', 'models; {task} and {trial} are filled in per run (default scripted:campaign/{task}.t{trial})')
    .option('--frameworks <name,...>', 'physvec, react, react-rag, 1-shot (default physvec)')
    .option('--trials <n>', 'trials per (task, model, framework)')
    .option('--concurrency <k>', 'runs at a time')
    .option('--stop-after-passes <n>', 'skip the remaining trials of a (task, model, framework) once this many passed')
    .option('--pass-criterion <c>', 'executable or scientific (default scientific)')
    .option('--children-per-run <n>', 'children per workflow run before continue-as-new')
    .option('--label <text>', 'a label stored with the campaign')
    .option('--id <campaignId>', 'campaign id (default campaign-<time>-<random>); also the workflow id')
    .option('--workers <mode>', 'auto (start workers here if none polls), in-process, external', 'auto')
    .option('--no-wait', 'start the campaign and return at once')
    .option('--json', 'print one JSON document')
    .action(async (raw: Record<string, unknown>) => {
      const parsed = RunFlags.safeParse(raw);
      if (!parsed.success) throw badFlags(parsed.error, {}, raw);
      const opts = parsed.data;
      const specFlags = ['tasks', 'topics', 'root', 'limit', 'models', 'frameworks', 'trials', 'concurrency', 'stopAfterPasses', 'passCriterion', 'childrenPerRun', 'label', 'id'] as const;
      let spec;
      if (opts.spec) {
        const clash = specFlags.filter((k) => opts[k] !== undefined);
        if (clash.length) throw new BadInputError(`--spec ${opts.spec}: give the campaign either as a file or as flags, not both (drop ${clash.map(flagName).join(', ')})`);
        spec = await loadCampaignSpecFile(opts.spec);
      } else {
        spec = specFromFlags(opts);
      }
      const plan = await checkCampaign(spec, opts.spec ?? 'bench run');
      const say = (s: string) => { if (!opts.json) line(s); };
      const { client, connection, target } = await connectClient();
      try {
        const { handle, campaignId } = await startCampaign(client, spec);
        say(`campaign ${campaignId}: ${plan.length} runs (${new Set(plan.map((k) => k.taskId)).size} tasks × ${spec.models.length} model(s) × ${spec.frameworks.join('/')} × ${spec.trials} trial(s)), concurrency ${spec.concurrency}`);
        say(`UI: ${uiUrl(campaignId)}`);
        if (!opts.wait) {
          if (opts.json) printJson({ campaignId, workflowId: campaignId, planned: plan.length, ui: uiUrl(campaignId) });
          else say(`follow it with \`physvec bench status ${campaignId}\``);
          return;
        }
        const t0 = Date.now();
        const result = await withWorkersIfNeeded(client, target.namespace, opts.workers as WorkerMode, () => followCampaign(handle, followMode(opts.json)), say);
        const report = readReportJson(result.report.jsonPath);
        if (opts.json) {
          printJson({ ...result, wallMs: Date.now() - t0, ui: uiUrl(campaignId), summary: summaryRows(report.metrics) });
          return;
        }
        say(`campaign ${campaignId} completed in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${progressText({ ...result.counts, campaignId, planned: result.planned, running: 0, continuedAsNew: result.continuedAsNew, inFlight: [] })}`);
        printSummary(report);
        say(`report: ${result.report.htmlPath}`);
        say(`        ${result.report.jsonPath}`);
      } finally {
        await connection.close();
      }
    });

  bench
    .command('status <campaignId>')
    .description('progress of a running campaign (its progress query), or what the results store holds for a closed one')
    .option('--json', 'print one JSON document')
    .action(async (campaignId: string, opts: { json?: boolean }) => {
      const db = storeOrNull();
      const rec = db ? getCampaign(db, campaignId) : null;
      const stored = rec && db ? { ...rec, spec: undefined, runs: countRuns(db, campaignId) } : null;
      const { client, connection } = await connectClient();
      try {
        const handle = client.workflow.getHandle(rec?.workflowId ?? campaignId);
        let workflow: { status: string; startTime: Date; closeTime?: Date } | null = null;
        let progress: unknown = null;
        try {
          const d = await handle.describe();
          workflow = { status: d.status.name, startTime: d.startTime, closeTime: d.closeTime };
          if (d.status.name === 'RUNNING') progress = await queryProgress(handle).catch((err: Error) => ({ unavailable: err.message }));
        } catch (err) {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
        }
        if (!workflow && !stored) throw new BadInputError(`no campaign ${campaignId}: neither Temporal nor the results store ${resultsDbPath()} knows it`);
        const doc = { campaignId, workflow, progress, store: stored, ui: uiUrl(rec?.workflowId ?? campaignId) };
        if (opts.json) return printJson(doc);
        line(`campaign ${campaignId}: ${workflow ? `workflow ${workflow.status}` : 'workflow no longer kept by Temporal'}${stored ? `, store ${stored.status}` : ''}`);
        if (progress && 'planned' in (progress as object)) line(`  ${progressText(progress as never)}`);
        else if (progress) line(`  progress: ${(progress as { unavailable: string }).unavailable}`);
        if (stored) {
          line(`  recorded ${stored.runs.recorded}/${stored.planned}: done ${stored.runs.done}, error ${stored.runs.error}, skipped ${stored.runs.skipped}`);
          if (stored.reportPath) line(`  report: ${stored.reportPath}`);
        }
        line(`UI: ${doc.ui}`);
      } finally {
        await connection.close();
      }
    });

  bench
    .command('report <campaignId>')
    .description("a campaign's report: where it is and its summary table (--regenerate rewrites it from the store)")
    .option('--regenerate', 'rewrite report.html and report.json from the results store')
    .option('--json', 'print one JSON document')
    .action(async (campaignId: string, opts: { regenerate?: boolean; json?: boolean }) => {
      const r = await campaignReport(campaignId, !!opts.regenerate);
      const report = readReportJson(r.jsonPath);
      if (opts.json) return printJson({ campaignId, ...r, status: report.campaign.status, summary: summaryRows(report.metrics), comparison: report.comparison, notices: report.notices });
      line(`campaign ${campaignId} (${report.campaign.status})${r.regenerated ? ': report written now' : ''}`);
      printSummary(report);
      line(`report: ${r.htmlPath}`);
      line(`        ${r.jsonPath}`);
      if (report.campaign.status === 'failed') process.exitCode = EXIT.failed;
    });
}
