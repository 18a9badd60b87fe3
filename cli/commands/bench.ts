// physvec bench run|status|report — benchmark campaigns: every selected task × model × framework ×
// trial as one child workflow, `--concurrency` at a time, recorded in the results store, ending in
// a campaign report (the paper's Figs. 5–7 from the runs). Workers start in this process when none
// polls the queues, as `reproduce` does.
import type { Command } from 'commander';
import { badFlags } from '../flags.js';

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
      const { BenchRunFlags, runBench } = await import('../runs/bench-run.js'); // here, not at the top: `--help` stays light
      const parsed = BenchRunFlags.safeParse(raw);
      if (!parsed.success) throw badFlags(parsed.error, {}, raw);
      await runBench(parsed.data);
    });

  bench
    .command('retry <campaignId>')
    .description('rerun only the failed and errored runs of a closed campaign (the others stay as recorded)')
    .option('--concurrency <k>', 'runs at a time (default: the campaign\'s)')
    .option('--workers <mode>', 'auto (start workers here if none polls), in-process, external', 'auto')
    .option('--no-wait', 'start the retry and return at once')
    .option('--json', 'print one JSON document')
    .action(async (campaignId: string, raw: Record<string, unknown>) => {
      const { BenchRetryFlags, retryBench } = await import('../runs/bench-retry.js');
      const parsed = BenchRetryFlags.safeParse(raw);
      if (!parsed.success) throw badFlags(parsed.error, {}, raw);
      await retryBench(campaignId, parsed.data);
    });

  bench
    .command('status <campaignId>')
    .description('progress of a running campaign (its progress query), or what the results store holds for a closed one')
    .option('--json', 'print one JSON document')
    .action(async (campaignId: string, opts: { json?: boolean }) => (await import('../runs/bench-status.js')).benchStatus(campaignId, opts));

  bench
    .command('report <campaignId>')
    .description("a campaign's report: where it is and its summary table (--regenerate rewrites it from the store)")
    .option('--regenerate', 'rewrite report.html and report.json from the results store')
    .option('--json', 'print one JSON document')
    .action(async (campaignId: string, opts: { regenerate?: boolean; json?: boolean }) => (await import('../runs/bench-report.js')).benchReport(campaignId, opts));
}
