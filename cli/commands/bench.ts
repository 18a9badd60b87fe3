// physvec bench run|status|report — benchmark campaigns: every selected task × model × framework ×
// trial as one child workflow, `--concurrency` at a time, recorded in the results store, ending in
// a campaign report (the paper's Figs. 5–7 from the runs). Workers start in this process when none
// polls the queues, as `reproduce` does.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import type { CampaignSpec, RunKey } from '../../schemas/campaign.js';
import type { CampaignResult } from '../../workflows/campaign/progress.js';
import { findCampaign, forgetRuns, retryPlan, specDifferences, storedSpec } from '../runs/campaign-resume.js';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { BadInputError } from '../../lib/errors.js';
import { openResultsDb, resultsDbExists, resultsDbPath } from '../../lib/results/db.js';
import { countRuns, getCampaign, recordedKeys } from '../../lib/results/store.js';
import { writeCampaignReport } from '../../lib/reports/campaign-report.js';
import { campaignDir } from '../../lib/reports/dirs.js';
import { withWorkersIfNeeded, type WorkerMode } from '../runs/workers-on-demand.js';
import { checkCampaign, loadCampaignSpecFile, specFromFlags } from '../runs/campaign-spec.js';
import { startCampaign } from '../runs/campaign-run.js';
import { planByTopic } from '../../activities/campaign/plan.js';
import { followCampaign, followMode, progressText } from '../runs/campaign-follow.js';
import { liveQuery } from '../runs/live-query.js';
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

const RetryFlags = z.object({
  concurrency: z.coerce.number().int().positive().optional(),
  workers: z.enum(['auto', 'in-process', 'external']).default('auto'),
  wait: z.boolean().default(true),
  json: z.boolean().optional(),
});

type FollowOpts = { workers: string; wait: boolean; json?: boolean };

function pickDefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Follow a campaign to its end (workers in this process when none polls) and print its summary. */
async function followToReport(client: Client, namespace: string, handle: WorkflowHandle, campaignId: string, opts: FollowOpts, say: (s: string) => void, watch = false): Promise<void> {
  const t0 = Date.now();
  const result = (await withWorkersIfNeeded(client, namespace, opts.workers as WorkerMode, () => followCampaign(handle, followMode(opts.json)), say, watch ? handle : undefined)) as CampaignResult;
  const report = readReportJson(result.report.jsonPath);
  if (opts.json) {
    printJson({ ...result, wallMs: Date.now() - t0, ui: uiUrl(campaignId), summary: summaryRows(report.metrics) });
    return;
  }
  say(`campaign ${campaignId} completed in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${progressText({ ...result.counts, campaignId, planned: result.planned, running: 0, continuedAsNew: result.continuedAsNew, inFlight: [] })}`);
  printSummary(report);
  say(`report: ${result.report.htmlPath}`);
  say(`        ${result.report.jsonPath}`);
}

async function startAndFollow(client: Client, namespace: string, spec: CampaignSpec, plan: RunKey[], opts: FollowOpts, say: (s: string) => void, retried?: string[]): Promise<void> {
  const { handle, campaignId } = await startCampaign(client, spec);
  say(`campaign ${campaignId}: ${plan.length} runs (${new Set(plan.map((k) => k.taskId)).size} tasks × ${spec.models.length} model(s) × ${spec.frameworks.join('/')} × ${spec.trials} trial(s)), concurrency ${spec.concurrency}; by topic: ${Object.entries(planByTopic(plan)).map(([t, n]) => `${t} ${n.tasks} tasks`).join(', ')}`);
  say(`UI: ${uiUrl(campaignId)}`);
  if (!opts.wait) {
    if (opts.json) printJson({ campaignId, workflowId: campaignId, planned: plan.length, plannedByTopic: planByTopic(plan), ...(retried ? { retried } : {}), ui: uiUrl(campaignId) });
    else say(`follow it with \`physvec bench status ${campaignId}\``);
    return;
  }
  await followToReport(client, namespace, handle, campaignId, opts, say, true);
}

export function register(program: Command): void {
  const bench = program.command('bench').description('benchmark campaigns: tasks × models × frameworks × trials as durable child workflows');

  bench
    .command('run')
    .description('start a campaign (from --spec <campaign.json> or from flags) and follow it to its report')
    .option('--spec <file>', 'campaign JSON file (fields of CampaignInput: selection, models, frameworks, trials, concurrency, …)')
    .option('--tasks <substr,...>', 'keep tasks whose id contains any of these')
    .option('--topics <topic,...>', 'keep these topics (dmrg, nqs = nnwf, qsim = qcmb, dft = dft_qc)')
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
      let spec: CampaignSpec | undefined;
      if (opts.spec) {
        const clash = specFlags.filter((k) => opts[k] !== undefined);
        if (clash.length) throw new BadInputError(`--spec ${opts.spec}: give the campaign either as a file or as flags, not both (drop ${clash.map(flagName).join(', ')})`);
        spec = await loadCampaignSpecFile(opts.spec);
      } else if (!opts.id || specFlags.some((k) => k !== 'id' && k !== 'concurrency' && k !== 'label' && k !== 'childrenPerRun' && opts[k] !== undefined)) {
        spec = specFromFlags(opts);
      }
      // A new campaign is checked before any connection; an existing one once we know its spec.
      let plan = spec && !opts.id ? await checkCampaign(spec, opts.spec ?? 'bench run') : undefined;
      const say = (s: string) => { if (!opts.json) line(s); };
      const { client, connection, target } = await connectClient();
      try {
        const existing = opts.id ? await findCampaign(client, opts.id) : undefined;
        const known = existing && (existing.workflow || existing.stored) ? existing : undefined;
        if (opts.id && !spec && !known) {
          throw new BadInputError(`--id ${opts.id}: no campaign ${opts.id} to reattach to or resume (neither Temporal nor the results store ${resultsDbPath()} knows it); add --tasks/--models… or --spec to start a new campaign under this id`, undefined, 'id');
        }
        const recorded = known?.stored ? storedSpec(known.stored) : undefined;
        if (spec && recorded) {
          const diffs = specDifferences(spec, recorded);
          if (diffs.length) throw new BadInputError(`--id ${opts.id}: campaign ${opts.id} exists with another ${diffs.join(', ')}; drop the other flags to resume it with its own spec, or pick a new --id`, undefined, 'id');
        }
        if (known?.workflow?.running) {
          say(`campaign ${opts.id} is running: reattaching to it (no new workflow started; \`physvec bench status ${opts.id}\` shows it without following)`);
          if (!opts.wait) return opts.json ? printJson({ campaignId: opts.id, reattached: true, ui: uiUrl(opts.id) }) : undefined;
          return await followToReport(client, target.namespace, known.workflow.handle, opts.id!, opts, say, true);
        }
        const base = spec ?? recorded;
        if (!base) throw new BadInputError(`--id ${opts.id}: campaign ${opts.id} is closed and the results store ${resultsDbPath()} has no spec for it; give its --tasks/--models… or --spec to run it again`, undefined, 'id');
        const runSpec: CampaignSpec = { ...base, ...(opts.id ? { campaignId: opts.id } : {}), ...(spec ? {} : pickDefined({ concurrency: opts.concurrency, label: opts.label, childrenPerRun: opts.childrenPerRun })) };
        plan ??= await checkCampaign(runSpec, opts.spec ?? 'bench run');
        if (known) {
          const done = new Set(known.db ? recordedKeys(known.db, opts.id!) : []);
          const skipped = plan.filter((k) => done.has(k.key)).length;
          if (skipped === plan.length) {
            if (opts.json) return printJson({ campaignId: opts.id, planned: plan.length, recorded: skipped, resumed: false, ui: uiUrl(opts.id!) });
            say(`campaign ${opts.id} is complete: all ${plan.length} runs are recorded, nothing to run (\`physvec bench retry ${opts.id}\` reruns failed ones; \`physvec bench report ${opts.id}\` shows it)`);
            return;
          }
          say(`campaign ${opts.id} resumes: ${skipped} of ${plan.length} runs are recorded and are skipped`);
        }
        await startAndFollow(client, target.namespace, runSpec, plan, opts, say);
      } finally {
        await connection.close();
      }
    });

  bench
    .command('retry <campaignId>')
    .description('rerun only the failed and errored runs of a closed campaign (the others stay as recorded)')
    .option('--concurrency <k>', 'runs at a time (default: the campaign\'s)')
    .option('--workers <mode>', 'auto (start workers here if none polls), in-process, external', 'auto')
    .option('--no-wait', 'start the retry and return at once')
    .option('--json', 'print one JSON document')
    .action(async (campaignId: string, raw: Record<string, unknown>) => {
      const parsed = RetryFlags.safeParse(raw);
      if (!parsed.success) throw badFlags(parsed.error, {}, raw);
      const opts = parsed.data;
      const say = (s: string) => { if (!opts.json) line(s); };
      const { client, connection, target } = await connectClient();
      try {
        const found = await findCampaign(client, campaignId);
        if (!found.stored || !found.db) throw new BadInputError(`no campaign ${campaignId} in the results store ${resultsDbPath()} (list them with \`physvec results list\`)`);
        if (found.workflow?.running) throw new BadInputError(`campaign ${campaignId} is still running: retry it once it has closed (\`physvec bench status ${campaignId}\`), or reattach with \`physvec bench run --id ${campaignId}\``);
        const spec: CampaignSpec = { ...storedSpec(found.stored), ...pickDefined({ concurrency: opts.concurrency }) };
        const plan = await checkCampaign(spec, `bench retry ${campaignId}`);
        const { retry } = retryPlan(found.db, campaignId);
        if (retry.length === 0) {
          if (opts.json) return printJson({ campaignId, retried: [], ui: uiUrl(campaignId) });
          say(`campaign ${campaignId}: no failed or errored run to retry`);
          return;
        }
        say(`campaign ${campaignId}: retrying ${retry.length} failed/errored run(s): ${retry.map((r) => r.key).join(', ')}`);
        forgetRuns(found.db, campaignId, retry.map((r) => r.key));
        await startAndFollow(client, target.namespace, spec, plan, opts, say, retry.map((r) => r.key));
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
      const { client, connection, target } = await connectClient();
      try {
        const handle = client.workflow.getHandle(rec?.workflowId ?? campaignId);
        let workflow: { status: string; startTime: Date; closeTime?: Date } | null = null;
        let progress: unknown = null;
        try {
          const d = await handle.describe();
          workflow = { status: d.status.name, startTime: d.startTime, closeTime: d.closeTime };
          if (d.status.name === 'RUNNING') progress = await liveQuery(handle, target.namespace, d.taskQueue, 'progress', 3000);
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
