// One task file → LoadedTask: the validated task, its topic, and what the dataset holds around it.
// A missing source or rubric means "not published" (QMP-Bench publishes few) and is not a problem;
// a file that is there but wrong is.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Task, type CompanionFile, type LoadedTask, type Problem, type RubricStatus, type Topic } from '../../schemas/task.js';
import { loadRubricFile, type LoadedRubric } from '../rubrics/load.js';
import { loadProtocolFile } from '../protocols/load-protocol.js';
import { companionPaths, type CompanionOptions } from './companions.js';
import { readJsonFile } from '../input-files/json-file.js';
import { isFile, locateTaskFile } from './layout.js';
import { errorAt, throwIfErrors, warningAt } from '../input-files/problems.js';
import { canonicalTopic, describeKnownTopics } from './topics.js';
import { taskWarnings } from './task-warnings.js';
import { validateWith } from '../input-files/zod-problems.js';

/** Published task files are 1–3 kB; one this large is not a task file (and would flood every prompt). */
export const TASK_FILE_MAX_BYTES = 1024 * 1024;

export interface LoadTaskOptions extends CompanionOptions {
  /** Dataset root; by default found by walking up from the task file. */
  datasetRoot?: string;
  /** Read the TeX source into `source.text` (off by default: sources run to tens of kB). */
  sourceText?: boolean;
  /** Shared across the tasks of one dataset scan so a rubric used twice is read once. */
  rubricCache?: Map<string, Promise<LoadedRubric>>;
}

export interface InspectedTaskFile {
  /** Absent when the file itself could not be read or validated. */
  task?: LoadedTask;
  problems: Problem[];
}

/** Loads a task file and collects every problem instead of throwing. */
export async function inspectTaskFile(taskFile: string, opts: LoadTaskOptions = {}): Promise<InspectedTaskFile> {
  const file = path.resolve(taskFile);
  const read = await readJsonFile(file, { maxBytes: TASK_FILE_MAX_BYTES, what: 'task file' });
  if (!read.ok) return { problems: [read.problem] };
  const valid = validateWith(Task, read.value, file);
  if (!valid.ok) return { problems: valid.problems };
  const task = valid.data;
  const problems: Problem[] = taskWarnings(task, file);
  const id = path.basename(file, path.extname(file));
  if (task.id !== undefined && task.id !== id) {
    problems.push(warningAt(file, `"${task.id}" differs from the file name; the task id is the file stem "${id}"`, 'id'));
  }

  const loc = await locateTaskFile(file, opts.datasetRoot);
  const topic = resolveTopic(task, loc.topicFolder ?? topicFromStem(id), file, problems);
  if (!topic) return { problems };

  const paths = companionPaths(task, loc, topic, opts);
  for (const e of paths.escapes) {
    problems.push(errorAt(file, `resolves to ${e.resolved}, outside the dataset root and the physvec repository; use a path inside them`, e.field));
  }
  const [source, protocolFile, digest, reference] = await Promise.all([
    firstExisting(paths.source, opts.sourceText === true),
    firstExisting(paths.protocol, false),
    firstExisting(paths.digest, false),
    firstExisting(paths.reference, false),
  ]);
  const protocol: LoadedTask['protocol'] = { ...protocolFile };
  if (protocolFile.found && protocolFile.path) {
    const p = await loadProtocolFile(protocolFile.path);
    problems.push(...p.problems);
    if (p.protocol) protocol.calculations = p.protocol.orca_inputs.length;
  }
  if (task.digest !== undefined && !digest.found) problems.push(errorAt(file, `digest file not found: ${paths.digest[0] ?? task.digest}`, 'digest'));
  if (task.reference !== undefined && !reference.found) {
    problems.push(errorAt(file, `reference solution not found: ${paths.reference[0] ?? task.reference}`, 'reference'));
  }
  const rubric = await loadRubricStatus(paths.rubric, opts.rubricCache);
  problems.push(...rubric.problems);

  return {
    task: {
      id,
      topic,
      topicFolder: loc.topicFolder ?? topic,
      layout: loc.layout,
      root: loc.root,
      file,
      task,
      source,
      protocol,
      digest,
      reference,
      rubric: rubric.status,
      counts: {
        limitingCases: task.LimitingCases?.length ?? 0,
        convergenceCases: task.ConvergenceCases?.length ?? 0,
        scientificResults: task.ScientificResults?.length ?? 0,
        rubricLeaves: rubric.status.leaves?.length ?? 0,
      },
      encoding: { bom: read.bom, crlf: read.crlf },
      problems,
    },
    problems,
  };
}

/** Loads a task file for a reproduction; throws BadInputError (exit code 2) listing every error. */
export async function loadTaskFile(taskFile: string, opts: LoadTaskOptions = {}): Promise<LoadedTask> {
  const { task, problems } = await inspectTaskFile(taskFile, opts);
  throwIfErrors(problems);
  return task!;
}

function resolveTopic(task: Task, folder: string | undefined, file: string, problems: Problem[]): Topic | undefined {
  const fromFolder = folder === undefined ? undefined : canonicalTopic(folder);
  const fromField = task.topic === undefined ? undefined : canonicalTopic(task.topic);
  if (fromFolder && fromField && fromFolder !== fromField) {
    problems.push(warningAt(file, `says "${task.topic}" but the file is in the "${folder}" folder; using "${fromField}"`, 'topic'));
  }
  const topic = fromField ?? fromFolder;
  if (!topic) {
    problems.push(
      errorAt(
        file,
        `cannot tell the topic${folder ? ` (folder "${folder}" is not a topic)` : ''}; put the file under <topic>/tasks/ or set "topic" to one of ${describeKnownTopics()}`,
        'topic',
      ),
    );
  }
  return topic;
}

/** `task_dmrg_7_2` → `dmrg`, for lone task files outside any layout. */
function topicFromStem(id: string): string | undefined {
  return /^task_([a-z]+)_/i.exec(id)?.[1];
}

async function firstExisting(candidates: readonly string[], withText: boolean): Promise<CompanionFile> {
  for (const p of candidates) {
    if (await isFile(p)) return withText ? { path: p, found: true, text: await readFile(p, 'utf8') } : { path: p, found: true };
  }
  return { path: candidates[0] ?? null, found: false, tried: [...candidates] };
}

async function loadRubricStatus(
  candidates: readonly string[],
  cache: Map<string, Promise<LoadedRubric>> | undefined,
): Promise<{ status: RubricStatus; problems: Problem[] }> {
  const found = await firstExisting(candidates, false);
  if (!found.found || found.path === null) return { status: { path: found.path, found: false }, problems: [] };
  let pending = cache?.get(found.path);
  if (!pending) {
    pending = loadRubricFile(found.path);
    cache?.set(found.path, pending);
  }
  const r = await pending;
  const status: RubricStatus = { path: found.path, found: true };
  if (r.tree) status.tree = r.tree;
  if (r.leaves) status.leaves = r.leaves;
  if (r.normCheck) status.normCheck = r.normCheck;
  return { status, problems: r.problems };
}
