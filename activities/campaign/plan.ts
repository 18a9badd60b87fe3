// planCampaign: the campaign's task selection crossed with its models, frameworks and trials, in a
// stable order. Trial-major (all groups' trial 1, then all trial 2, …) so that a campaign stopped
// or cut short early still has a first trial of every (task, model, framework), and so that early
// stop can skip the later trials of a group that already passed.
import path from 'node:path';
import { loadDataset } from '../../lib/tasks/dataset.js';
import { formatProblem } from '../../lib/input-files/problems.js';
import { BadInputError, describeZodError } from '../../lib/errors.js';
import { repoRoot } from '../../lib/paths.js';
import { CampaignInput, type CampaignSpec, type RunKey, type TaskSelection } from '../../schemas/campaign.js';
import type { LoadedTask } from '../../schemas/task.js';
import { runKeyOf } from '../../lib/campaign/keys.js';

/** A relative root is the project's (the default `data/tasks` is our suite); the CLI makes a root given relative to the shell's directory absolute before it gets here. */
export function resolveSelectionRoot(root: string): string {
  return path.isAbsolute(root) ? root : path.resolve(repoRoot, root);
}

/** The selected tasks, in the dataset's stable order (topic folder, then natural file order). */
export async function selectTasks(selection: TaskSelection): Promise<LoadedTask[]> {
  const root = resolveSelectionRoot(selection.root);
  let dataset;
  try {
    dataset = await loadDataset(root);
  } catch (err) {
    if (err instanceof BadInputError) throw new BadInputError(`selection.root: ${err.message}`, root, 'selection.root');
    throw err;
  }
  let tasks = dataset.tasks;
  if (tasks.length === 0) throw new BadInputError(`selection.root: ${dataset.root} holds no task files`, dataset.root, 'selection.root');
  if (selection.ids.length) {
    const kept = tasks.filter((t) => selection.ids.some((s) => t.id.includes(s)));
    if (kept.length === 0) {
      throw new BadInputError(
        `selection.ids: no task id in ${dataset.root} contains any of ${selection.ids.map((s) => `"${s}"`).join(', ')}; ` +
          `ids there include ${tasks.slice(0, 6).map((t) => t.id).join(', ')}${tasks.length > 6 ? ', …' : ''}`,
        dataset.root,
        'selection.ids',
      );
    }
    tasks = kept;
  }
  if (selection.topics.length) {
    const kept = tasks.filter((t) => (selection.topics as string[]).includes(t.topic));
    if (kept.length === 0) {
      const present = [...new Set(tasks.map((t) => t.topic))].sort();
      throw new BadInputError(
        `selection.topics: none of the selected tasks has topic ${selection.topics.join(' or ')}; topics present: ${present.join(', ')}`,
        dataset.root,
        'selection.topics',
      );
    }
    tasks = kept;
  }
  if (selection.limit !== undefined) tasks = tasks.slice(0, selection.limit);
  // A task that cannot load would fail in its first activity; say so now, naming the file and the field.
  const broken = tasks.filter((t) => t.problems.some((p) => p.severity === 'error'));
  if (broken.length) {
    const lines = broken.flatMap((t) => t.problems.filter((p) => p.severity === 'error').map(formatProblem));
    throw new BadInputError(`selected tasks with errors (fix them or narrow selection.ids):\n${lines.join('\n')}`, broken[0]!.file);
  }
  return tasks;
}

/** Planned runs and distinct tasks per topic (dft included), for the plan's printout and JSON. */
export function planByTopic(keys: readonly RunKey[]): Record<string, { tasks: number; runs: number }> {
  const out: Record<string, { tasks: number; runs: number; ids: Set<string> }> = {};
  for (const k of keys) {
    const t = (out[k.topic] ??= { tasks: 0, runs: 0, ids: new Set() });
    t.runs++;
    t.ids.add(k.taskId);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)).map(([topic, t]) => [topic, { tasks: t.ids.size, runs: t.runs }]));
}

export async function planCampaign(rawSpec: CampaignSpec): Promise<RunKey[]> {
  const parsed = CampaignInput.safeParse(rawSpec);
  if (!parsed.success) throw new BadInputError(describeZodError(parsed.error, 'campaign spec'));
  const spec = parsed.data;
  for (const [field, list] of [['models', spec.models], ['frameworks', spec.frameworks]] as const) {
    const dup = (list as readonly string[]).find((v, i) => (list as readonly string[]).indexOf(v) !== i);
    if (dup !== undefined) throw new BadInputError(`${field}: "${dup}" is listed twice; list each once`, undefined, field);
  }
  const tasks = await selectTasks(spec.selection);
  const keys: RunKey[] = [];
  const seen = new Map<string, string>();
  for (let trial = 1; trial <= spec.trials; trial++) {
    for (const task of tasks) {
      for (const model of spec.models) {
        for (const framework of spec.frameworks) {
          const key = runKeyOf(task.id, model, framework, trial);
          const what = `${task.file} × ${model} × ${framework}`;
          const clash = seen.get(key);
          if (clash !== undefined) {
            throw new BadInputError(`two runs would share the key ${key} (${clash} and ${what}): task ids and model names must stay distinct after sanitising`);
          }
          seen.set(key, what);
          keys.push({ key, taskId: task.id, taskFile: task.file, topic: task.topic, model, framework, trial });
        }
      }
    }
  }
  return keys;
}
