// `physvec tasks prepare <root>`: for every task file of a dataset, the reproduction's own prepareTask
// activity (the same code a workflow runs before its first LLM call: load and validate, toolchain and
// substitution, adapted request and rubric leaves, source and protocol, verifier library), against a
// throw-away artifact store, with no model and no Temporal. Truths and tolerances are parsed as the
// scientific verifier will parse them.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { createPipelineActivities, type PipelineActivities } from '../../activities/pipeline/index.js';
import { detectToolchains } from '../../activities/toolchains/detect.js';
import { loadDataset } from '../../lib/tasks/dataset.js';
import { formatProblem } from '../../lib/input-files/problems.js';
import { preparedLine, summariseByTopic, type PreparedTaskLine, type TopicPrepareSummary } from '../../lib/tasks/prepare-report.js';
import { canonicalTopic } from '../../lib/tasks/topics.js';
import { getProfile, profilesForTopic } from '../../lib/toolchains/config.js';
import { mapLimit } from '../../lib/toolchains/map-limit.js';
import type { TaskContext } from '../../schemas/pipeline.js';
import type { Topic } from '../../schemas/task.js';
import type { ToolchainStatus } from '../../schemas/toolchain.js';

export interface PreparePassOptions {
  /** `--toolchain`: for each task, the first of these profiles that serves its topic. */
  toolchains?: string[];
  /** What is installed (default: detection on this machine). */
  available?: () => Promise<ToolchainStatus[]>;
  concurrency?: number;
}

export interface PreparePassReport {
  ok: boolean;
  root: string;
  layout: string;
  tasks: PreparedTaskLine[];
  byTopic: Record<string, TopicPrepareSummary>;
  summary: { taskFiles: number; preparable: number; notPreparable: number; invalidFiles: number };
  toolchains: Array<{ profile: string; available: boolean; version: string | null }>;
}

export async function preparePass(root: string, opts: PreparePassOptions = {}): Promise<PreparePassReport> {
  const dataset = await loadDataset(root);
  const statuses = await (opts.available ?? (() => detectToolchains()))();
  const storeDir = await mkdtemp(path.join(os.tmpdir(), 'physvec-prepare-'));
  const activities = createPipelineActivities({ store: new ArtifactStore(storeDir), toolchains: async () => statuses });
  const byFile = new Map(dataset.tasks.map((t) => [t.file, t]));
  try {
    const lines = await mapLimit(dataset.taskFiles, opts.concurrency ?? 4, async (file): Promise<PreparedTaskLine> => {
      const loaded = byFile.get(file);
      const id = path.basename(file, path.extname(file));
      const topic = loaded?.topic ?? null;
      try {
        const { ctx, needsFlag } = await prepareHere(activities, statuses, { file, root: dataset.root, topic: loaded?.topic ?? null, toolchains: opts.toolchains });
        const line = preparedLine(ctx, file, ctx.backgroundNames.length);
        if (needsFlag) line.needsFlag = needsFlag;
        return line;
      } catch (err) {
        const fileProblems = dataset.problems.filter((p) => p.file === file && p.severity === 'error');
        const error = fileProblems.length ? fileProblems.map(formatProblem).join('; ') : firstLine((err as Error).message);
        return { id, file, topic, preparable: false, error, lacks: [] };
      }
    });
    const preparable = lines.filter((l) => l.preparable).length;
    return {
      ok: preparable === lines.length,
      root: dataset.root,
      layout: dataset.layout,
      tasks: lines,
      byTopic: summariseByTopic(lines),
      summary: { taskFiles: lines.length, preparable, notPreparable: lines.length - preparable, invalidFiles: dataset.taskFiles.length - dataset.tasks.length },
      toolchains: statuses.map((s) => ({ profile: s.profile, available: s.available, version: s.version })),
    };
  } finally {
    await rm(storeDir, { recursive: true, force: true });
  }
}

/**
 * One task through the reproduction's prepareTask. A reproduction refuses to substitute unasked (the task
 * demands its package): then the installed substitutes are tried and `needsFlag` says which flag makes it run here.
 */
export async function prepareHere(
  activities: Pick<PipelineActivities, 'prepareTask'>,
  statuses: readonly ToolchainStatus[],
  task: { file: string; root: string | null; topic: Topic | null; toolchains?: readonly string[] | undefined },
): Promise<{ ctx: TaskContext; needsFlag?: string }> {
  const prepare = (toolchain?: string) => activities.prepareTask({ taskFile: task.file, ...(task.root ? { datasetRoot: task.root } : {}), ...(toolchain ? { toolchain } : {}) });
  const toolchain = task.topic ? pickToolchain(task.toolchains, task.topic) : undefined;
  try {
    return { ctx: await prepare(toolchain) };
  } catch (err) {
    const alternatives = toolchain || !task.topic ? [] : installedSubstitutes(task.topic, statuses);
    for (const alt of alternatives) {
      const ctx = await prepare(alt).catch(() => undefined);
      if (ctx) return { ctx, needsFlag: `--toolchain ${alt}` };
    }
    throw err;
  }
}

/** Available profiles of the topic that declare themselves a substitute for another, in config order. */
function installedSubstitutes(topic: Topic, statuses: readonly ToolchainStatus[]): string[] {
  const here = new Set(statuses.filter((s) => s.available).map((s) => s.profile));
  return profilesForTopic(topic).filter((p) => p.substitutes.length > 0 && here.has(p.name)).map((p) => p.name);
}

function pickToolchain(given: readonly string[] | undefined, topic: string): string | undefined {
  const t = canonicalTopic(topic);
  return given?.find((name) => t !== undefined && getProfile(name).topics.includes(t));
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}
