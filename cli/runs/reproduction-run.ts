// Start a reproduction workflow from the CLI: resolve models and budget from the config and the
// flags, check API keys before anything starts, and fall back to the task's scripted cassette when
// no key is set (saying so).
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { applyCliOverrides, loadConfig, modelsForRoles, type CliOverrides } from '../../lib/config.js';
import { checkCredentials, describeMissingCredentials } from '../../activities/llm/credentials.js';
import { inspectTaskFile } from '../../lib/tasks/load-task.js';
import { BadInputError } from '../../lib/errors.js';
import { repoRoot } from '../../lib/paths.js';
import { TASK_QUEUES } from '../../temporal-config/queues.js';
import { SA } from '../../temporal-config/search-attributes.js';
import type { reproduction } from '../../workflows/reproduction/index.js';
import type { ReproductionInput } from '../../schemas/pipeline.js';

export const PIPELINE_ROLES = ['author', 'coder', 'unit-test-writer', 'repairer', 'rubric-grader', 'rubric-consistency', 'assertion-writer', 'assertion-judge', 'convergence-writer'];

export interface ReproduceOptions extends CliOverrides {
  dataset?: string;
  toolchain?: string;
  pauseAfter?: string[];
  limits?: ReproductionInput['limits'];
  workflowId?: string;
}

export async function startReproduction(client: Client, taskFile: string, opts: ReproduceOptions = {}) {
  const file = path.resolve(taskFile);
  const inspected = await inspectTaskFile(file, opts.dataset ? { datasetRoot: opts.dataset } : {});
  const errors = inspected.problems.filter((p) => p.severity === 'error');
  if (!inspected.task || errors.length) throw new BadInputError(errors.map((p) => `${p.file}: ${p.field ?? '(root)'}: ${p.message}`).join('\n') || `${file}: not a task file`, file);
  const taskId = inspected.task.id;
  let config = applyCliOverrides(loadConfig(), opts);
  const notes: string[] = [];
  let missing = checkCredentials(modelsForRoles(config, PIPELINE_ROLES), config);
  if (missing.length && !opts.model && !opts.roleModel?.length) {
    const cassette = path.join(repoRoot, config.llm.cassettesDir, `${taskId}.json`);
    if (existsSync(cassette)) {
      config = applyCliOverrides(config, { model: `scripted:${taskId}` });
      notes.push(`no API key is set (${missing.map((m) => m.envVar).join(', ')}): using the scripted model scripted:${taskId} (recorded answers; execution and verification are real)`);
      missing = [];
    }
  }
  if (missing.length) throw new BadInputError(`missing API keys for the models this run would use:\n${describeMissingCredentials(missing)}\nor pass --model scripted:<cassette> to replay recorded answers`);
  const topic = inspected.task.topic;
  const input: ReproductionInput = {
    taskFile: file,
    datasetRoot: opts.dataset,
    toolchain: opts.toolchain,
    models: { defaultModel: config.llm.defaultModel, roles: config.llm.roles },
    budget: { maxTokens: config.budget.maxTokens ?? undefined, maxUsd: config.budget.maxUsd ?? undefined },
    limits: opts.limits ?? {},
    pauseAfter: opts.pauseAfter ?? [],
  };
  const workflowId = opts.workflowId ?? `repro-${taskId}-${randomUUID().slice(0, 8)}`;
  const handle = await client.workflow.start<typeof reproduction>('reproduction', {
    workflowId,
    taskQueue: TASK_QUEUES.orchestration,
    args: [input],
    typedSearchAttributes: [
      { key: SA.TaskId, value: taskId },
      { key: SA.Topic, value: topic },
      { key: SA.Framework, value: 'physvec' },
      { key: SA.Model, value: config.llm.defaultModel },
      { key: SA.Stage, value: 'queued' },
      { key: SA.Verdict, value: 'running' },
    ],
  });
  return { handle, workflowId, taskId, notes, models: input.models };
}
