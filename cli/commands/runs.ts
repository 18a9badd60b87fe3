// physvec runs [--verdict …] [--topic …] — the reproductions (and baseline runs) Temporal's visibility
// store knows, newest first: id, task, model, verdict, stage, start, duration. Filters become a
// visibility query on the search attributes, so `temporal workflow list --query` gives the same rows.
// This file declares the verb; its body (cli/runs/list-runs.ts, Temporal's client) is imported when it runs.
import type { Command } from 'commander';
import { z } from 'zod';
import { RunStatus } from '../../schemas/verdict.js';
import { badFlags } from '../flags.js';

/** The values the verdict search attribute of a run takes (running/paused while it works). */
const VERDICTS: readonly string[] = RunStatus.options;

const Flags = z.object({
  verdict: z.array(z.string()).default([]),
  topic: z.array(z.string()).default([]),
  task: z.string().optional(),
  limit: z.coerce.number().int().positive().default(50),
  json: z.boolean().optional(),
});

export function register(program: Command): void {
  const collect = (v: string, acc: string[]) => [...acc, ...v.split(',').map((x) => x.trim()).filter(Boolean)];
  program
    .command('runs')
    .description('list reproductions from Temporal visibility: id, task, model, verdict, stage, start, duration')
    .option('--verdict <verdict>', `only runs with this verdict (${VERDICTS.join(', ')}); repeatable or comma-separated`, collect, [])
    .option('--topic <topic>', 'only tasks of this topic (dmrg, nqs, qsim, dft); repeatable or comma-separated', collect, [])
    .option('--task <taskId>', 'only runs of this task')
    .option('--limit <n>', 'at most this many rows (newest first)', '50')
    .option('--json', 'print one JSON document')
    .action(async (raw: Record<string, unknown>) => {
      const parsed = Flags.safeParse(raw);
      if (!parsed.success) throw badFlags(parsed.error, {}, raw);
      await (await import('../runs/list-runs.js')).listRuns(parsed.data);
    });
}
