// physvec reproduce <task.json> — check everything that can be checked, start a reproduction
// workflow, show live progress, print its id, the UI link and where the evidence report is. When no
// worker polls the queues the workers run in this process (and it says so); `--workers external`
// waits for workers started elsewhere. A task with a `smoke.script` runs the platform's smoke
// reproduction instead (its only stage runs that script in the sandbox).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { z } from 'zod';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { line, printJson, EXIT } from '../output.js';
import { badFlags } from '../flags.js';
import { PausableStage } from '../../schemas/agent-roles.js';
import { TaskSize } from '../../schemas/pipeline.js';
import { MAX_RUN_TIMEOUT_SECONDS } from '../../schemas/config.js';

const Flags = z.object({
  dataset: z.string().optional(),
  model: z.string().optional(),
  roleModel: z.array(z.string()).default([]),
  toolchain: z.string().optional(),
  size: TaskSize.default('scaled'),
  budgetUsd: z.coerce.number().positive().optional(),
  budgetTokens: z.coerce.number().int().positive().optional(),
  deadlineHours: z.coerce.number().positive().optional(),
  runTimeout: z.coerce.number().int().positive().max(MAX_RUN_TIMEOUT_SECONDS).optional(),
  pauseAfter: z.array(PausableStage).default([]),
  workers: z.enum(['auto', 'in-process', 'external']).default('auto'),
  wait: z.boolean().default(true),
  json: z.boolean().optional(),
});
type Flags = z.infer<typeof Flags>;

/** The verb's body (Temporal's client, the run starters and followers), imported when it runs: `--help` stays light. */
async function body() {
  const [connection, smoke, follow, run, followRun, workers, interrupt] = await Promise.all([
    import('../../lib/temporal/connection.js'), import('../runs/smoke-run.js'), import('../runs/follow.js'),
    import('../runs/reproduction-run.js'), import('../runs/follow-reproduction.js'), import('../runs/workers-on-demand.js'),
    import('../runs/interrupt.js'),
  ]);
  return { ...connection, ...smoke, ...follow, ...run, ...followRun, ...workers, ...interrupt };
}
type Body = Awaited<ReturnType<typeof body>>;

async function isSmokeTask(file: string): Promise<boolean> {
  try {
    return 'smoke' in JSON.parse((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''));
  } catch {
    return false;
  }
}

/** Runs `follow` with workers for it: in this process when none polls (auto), or waiting for external ones. */
async function serveRun<T>({ withWorkersIfNeeded, sayWhenNobodyPolls }: Body, client: Client, namespace: string, opts: Flags, handle: WorkflowHandle, follow: () => Promise<T>): Promise<T> {
  const say = (s: string) => (opts.json ? process.stderr.write(`physvec: ${s}\n`) : line(`note: ${s}`));
  if (opts.workers !== 'external') return withWorkersIfNeeded(client, namespace, opts.workers, follow, say, handle);
  const stop = sayWhenNobodyPolls(handle, say);
  try {
    return await follow();
  } finally {
    stop();
  }
}

/** serveRun, with Ctrl-C meanwhile ending this process in one line naming the run and what became of it. */
async function withWorkers<T>(b: Body, client: Client, namespace: string, opts: Flags, handle: WorkflowHandle, follow: () => Promise<T>): Promise<T> {
  const release = b.onInterrupt(handle.workflowId);
  try {
    return await serveRun(b, client, namespace, opts, handle, follow);
  } finally {
    release();
  }
}

export function register(program: Command): void {
  program
    .command('reproduce <task>')
    .description('reproduce the figure a task file asks for (starts a durable workflow)')
    .option('--dataset <root>', 'dataset root the task belongs to (QMP-Bench layout)')
    .option('--model <provider:model>', 'model for every agent role (e.g. openai:gpt-5.1, gemini:gemini-2.5-flash, scripted:<cassette>)')
    .option('--role-model <role=provider:model>', 'model for one agent role (repeatable)', (v: string, acc: string[]) => [...acc, v], [])
    .option('--toolchain <profile>', 'toolchain profile, e.g. tenpy to substitute for ITensors')
    .option('--size <size>', 'scaled (the suite\'s size) | full (the task\'s full-size parameters; simulations on the large queue: `physvec worker --queue large`)', 'scaled')
    .option('--budget-usd <n>', 'stop cleanly (budget_exhausted) before spending more than this')
    .option('--budget-tokens <n>', 'stop cleanly (budget_exhausted) before using more tokens than this')
    .option('--deadline-hours <h>', 'how long after its start the run\'s LLM calls keep retrying a provider that is down or throttling (default budget.deadlineHours of the config, 24)')
    .option('--run-timeout <seconds>', 'CPU-time limit of the script\'s sandbox runs (all its processes; default sandbox.runTimeoutSeconds of the config, 300); unit tests get a tenth')
    .option('--pause-after <stage>', 'pause after a stage and wait for a resume signal (repeatable)', (v: string, acc: string[]) => [...acc, v], [])
    .option('--workers <mode>', 'auto (run the workers here when none polls the queues), in-process, external (wait for `physvec worker` elsewhere)', 'auto')
    .option('--no-wait', 'start the workflow and return at once (needs a worker elsewhere: `physvec worker`)')
    .option('--json', 'print one JSON document')
    .action(async (taskFile: string, raw: Record<string, unknown>) => {
      const parsed = Flags.safeParse(raw);
      if (!parsed.success) throw badFlags(parsed.error, {}, raw);
      const opts = parsed.data;
      const b = await body();
      const { prepareReproduction, connectClient, startSmoke, uiUrl, followSmoke, startPrepared, followReproduction, printResult } = b;
      const smoke = await isSmokeTask(taskFile);
      // Checked before any connection: bad input never needs a server, and never starts a workflow.
      const prepared = smoke ? undefined : await prepareReproduction(taskFile, opts);
      const { client, connection, target } = await connectClient();
      try {
        if (!prepared) {
          const { handle, workflowId } = await startSmoke(client, taskFile);
          if (!opts.json) line(`workflow ${workflowId}\nUI: ${uiUrl(workflowId)}`);
          if (!opts.wait) return opts.json ? printJson({ workflowId, ui: uiUrl(workflowId) }) : undefined;
          const result = await withWorkers(b, client, target.namespace, opts, handle, () => followSmoke(handle, { quiet: !!opts.json }));
          if (opts.json) printJson({ workflowId, ui: uiUrl(workflowId), result });
          if (result.status !== 'passed') process.exitCode = EXIT.failed;
          return;
        }
        const started = await startPrepared(client, prepared);
        if (!opts.json) {
          for (const n of started.notes) line(`note: ${n}`);
          line(`workflow ${started.workflowId}`);
          line(`UI: ${uiUrl(started.workflowId)}`);
        }
        if (!opts.wait) return opts.json ? printJson({ workflowId: started.workflowId, ui: uiUrl(started.workflowId), notes: started.notes }) : undefined;
        const result = await withWorkers(b, client, target.namespace, opts, started.handle, () => followReproduction(started.handle, { quiet: !!opts.json }));
        if (opts.json) printJson({ ...result, ui: uiUrl(started.workflowId), notes: started.notes });
        else printResult(result);
        if (result.status !== 'passed') process.exitCode = EXIT.failed;
      } finally {
        await connection.close();
      }
    });
}
