// Start a reproduction workflow from the CLI: resolve models and budget from the config and the
// flags, check API keys before anything starts, and fall back to the task's scripted cassette when
// no key is set (saying so).
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { applyCliOverrides, configPath, loadConfig, modelsForRoles, type CliOverrides } from '../../lib/config.js';
import { checkCredentials, describeMissingCredentials } from '../../lib/llm/credentials.js';
import { inspectTaskFile } from '../../lib/tasks/load-task.js';
import { BadInputError } from '../../lib/errors.js';
import { repoRoot } from '../../lib/paths.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { SA } from '../../temporal-config/search-attributes.js';
import type { reproduction } from '../../workflows/reproduction/index.js';
import type { ReproductionInput, TaskSize } from '../../schemas/pipeline.js';
import { fullSizeNote } from '../../lib/tasks/full-size.js';
import { ScaledSpec } from '../../schemas/task.js';
import { PIPELINE_ROLES, checkDatasetRoot, checkRoleNames, checkScriptedModels, checkToolchain } from './preflight.js';


export interface ReproduceOptions extends CliOverrides {
  dataset?: string;
  toolchain?: string;
  size?: TaskSize;
  pauseAfter?: ReproductionInput['pauseAfter'];
  limits?: ReproductionInput['limits'];
  /** --run-timeout: the script's CPU-time limit in seconds (default: the config's sandbox.runTimeoutSeconds). */
  runTimeout?: number;
  workflowId?: string;
}

export type PreparedReproduction = Awaited<ReturnType<typeof prepareReproduction>>;

/** Everything checked and resolved before anything starts: a BadInputError (exit 2) for any bad input. */
export async function prepareReproduction(taskFile: string, opts: ReproduceOptions = {}) {
  const file = path.resolve(taskFile);
  checkDatasetRoot(opts.dataset);
  const inspected = await inspectTaskFile(file, opts.dataset ? { datasetRoot: opts.dataset } : {});
  const errors = inspected.problems.filter((p) => p.severity === 'error');
  if (!inspected.task || errors.length) throw new BadInputError(errors.map((p) => `${p.file}: ${p.field ?? '(root)'}: ${p.message}`).join('\n') || `${file}: not a task file`, file);
  const taskId = inspected.task.id;
  const loaded = loadConfig();
  checkRoleNames(loaded, opts.roleModel);
  let config = applyCliOverrides(loaded, opts);
  const notes: string[] = [];
  let missing = checkCredentials(modelsForRoles(config, PIPELINE_ROLES), config);
  let fallback = false;
  if (missing.length && !opts.model && !opts.roleModel?.length) {
    const cassette = path.join(repoRoot, config.llm.cassettesDir, `${taskId}.json`);
    if (existsSync(cassette)) {
      config = applyCliOverrides(config, { model: `scripted:${taskId}` });
      notes.push(`no API key is set (${missing.map((m) => m.envVar).join(', ')}): using the scripted model scripted:${taskId} (recorded answers; execution and verification are real)`);
      missing = [];
      fallback = true;
    }
  }
  if (missing.length) throw new BadInputError(`missing API key: ${describeMissingCredentials(missing).split('\n').join('; ')}; or pass --model scripted:<cassette> to replay recorded answers`);
  checkScriptedModels(config, 'physvec', (role) => {
    const flag = opts.roleModel?.find((f) => f.startsWith(`${role}=`));
    if (role && flag) return `--role-model ${role}=…`;
    if (fallback) return 'the task\'s scripted model';
    if (opts.model) return '--model';
    return role && loaded.llm.roles[role] ? `${configPath()}: llm.roles.${role}` : `${configPath()}: llm.defaultModel`;
  });
  const topic = inspected.task.topic;
  const raw = inspected.task.task as { User_requests?: string; toolchain?: string };
  const toolchain = await checkToolchain({ id: taskId, topic, request: String(raw.User_requests ?? ''), toolchain: raw.toolchain }, opts.toolchain);
  if (toolchain.substitutionNote) notes.push(toolchain.substitutionNote);
  if (toolchain.warning) notes.push(toolchain.warning);
  const full = opts.size === 'full';
  if (full) {
    const scaled = ScaledSpec.safeParse((inspected.task.task as { scaled?: unknown }).scaled);
    const note = fullSizeNote(scaled.success ? scaled.data : undefined);
    notes.push(note ? `--size full: ${note}` : '--size full: the task has no scaled parameters, it already runs at full size');
    notes.push(`--size full: its simulations go to the large queue; a worker must serve it (\`physvec worker --queue large\` on a big host)`);
  }
  const input: ReproductionInput = {
    taskFile: file,
    datasetRoot: opts.dataset,
    toolchain: opts.toolchain,
    ...(full ? { size: 'full' as const } : {}),
    models: { defaultModel: config.llm.defaultModel, roles: config.llm.roles },
    budget: { maxTokens: config.budget.maxTokens ?? undefined, maxUsd: config.budget.maxUsd ?? undefined, deadlineMs: Math.round(config.budget.deadlineHours * 3600_000) },
    limits: { runTimeoutMs: (opts.runTimeout ?? config.sandbox.runTimeoutSeconds) * 1000, ...opts.limits },
    pauseAfter: opts.pauseAfter ?? [],
  };
  const workflowId = opts.workflowId ?? `repro-${taskId}-${randomUUID().slice(0, 8)}`;
  return { input, workflowId, taskId, topic, notes, defaultModel: config.llm.defaultModel, profile: toolchain.profile };
}

/** User metadata (summary, details) and memo of a reproduction: the task, the model(s), where the report goes. */
export function startMetadata(p: PreparedReproduction) {
  const roles = Object.entries(p.input.models.roles ?? {}).map(([r, m]) => `${r}=${m}`).join(', ');
  return {
    staticSummary: `reproduce ${p.taskId} with ${p.defaultModel}`,
    staticDetails: [`**task** ${p.taskId} (${p.topic}): \`${p.input.taskFile}\``, `**model** ${p.defaultModel}${roles ? ` (roles: ${roles})` : ''}`, `**toolchain** ${p.profile ?? 'the task\'s own'}`, '**report** path in the memo (`reportPath`) once the run ends'].join('\n\n'),
    memo: { task: p.taskId, taskFile: p.input.taskFile, topic: p.topic, model: p.defaultModel, roles: p.input.models.roles ?? {} },
  };
}

/** Start a checked reproduction on the orchestration queue. */
export async function startPrepared(client: Client, p: PreparedReproduction) {
  const { input, workflowId, taskId, topic, notes } = p;
  const handle = await client.workflow.start<typeof reproduction>('reproduction', {
    workflowId,
    taskQueue: taskQueues().orchestration,
    args: [input],
    // What the Temporal UI shows at the top of the run's page; the workflow adds verdict and report path to the memo at its end.
    ...startMetadata(p),
    typedSearchAttributes: [
      { key: SA.TaskId, value: taskId },
      { key: SA.Topic, value: topic },
      { key: SA.Framework, value: 'physvec' },
      { key: SA.Model, value: p.defaultModel },
      { key: SA.Stage, value: 'queued' },
      { key: SA.Verdict, value: 'running' },
    ],
  });
  return { handle, workflowId, taskId, notes, models: input.models };
}

export async function startReproduction(client: Client, taskFile: string, opts: ReproduceOptions = {}) {
  return startPrepared(client, await prepareReproduction(taskFile, opts));
}
