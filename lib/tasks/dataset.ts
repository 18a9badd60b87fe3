// Scans a whole dataset (QMP-Bench as published, or our suite) and loads every task and rubric file.
// Rubric files no task points at are validated too, so a broken one cannot hide until it is used.
// Not scanned: QMP-Bench's empty template Rubrics/rubrics.json (it has no leaves by design).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { BadInputError } from '../errors.js';
import type { DatasetLayout, LoadedTask, NormCheckResult, Problem } from '../../schemas/task.js';
import { loadRubricFile, type LoadedRubric } from '../rubrics/load.js';
import { detectRootLayout, isDirectory, physvecRootOf } from './layout.js';
import { inspectTaskFile, type LoadTaskOptions } from './load-task.js';
import { formatProblem, warningAt } from '../input-files/problems.js';

export interface RubricFileStatus {
  file: string;
  /** Ids of the tasks whose rubric this is (empty: no task uses it). */
  referencedBy: string[];
  valid: boolean;
  leaves?: number;
  normCheck?: NormCheckResult;
}

export interface LoadedDataset {
  root: string;
  layout: Exclude<DatasetLayout, 'standalone'>;
  /** Every task file found, loaded or not, in a stable order. */
  taskFiles: string[];
  /** The task files that loaded (a task whose rubric is broken still loads, with the error in its problems). */
  tasks: LoadedTask[];
  rubricFiles: RubricFileStatus[];
  /** Every problem of every file, each reported once. */
  problems: Problem[];
}

export type LoadDatasetOptions = Pick<LoadTaskOptions, 'sourceText' | 'papersDir'>;

export async function loadDataset(datasetRoot: string, opts: LoadDatasetOptions = {}): Promise<LoadedDataset> {
  const given = path.resolve(datasetRoot);
  if (!(await isDirectory(given))) throw new BadInputError(`${given}: dataset root is not a directory`, given);
  const layout = await detectRootLayout(given);
  if (!layout) {
    throw new BadInputError(
      `${given}: not a dataset root; expected QMP-Bench's layout (<topic>/tasks/task_*.json beside Rubrics/) ` +
        `or physvec's (data/tasks/<topic>/<id>.json)`,
      given,
    );
  }
  const root = layout === 'physvec' ? physvecRootOf(given) : given;
  const taskDirs = layout === 'physvec' ? await subfoldersOf(path.join(root, 'data', 'tasks')) : await qmpTaskDirs(root);
  const taskFiles = (await Promise.all(taskDirs.map((d) => jsonFilesIn(d, 0)))).flat();

  const rubricCache = new Map<string, Promise<LoadedRubric>>();
  const inspected = await Promise.all(taskFiles.map((f) => inspectTaskFile(f, { ...opts, datasetRoot: root, rubricCache })));
  const tasks = inspected.flatMap((r) => (r.task ? [r.task] : []));
  const problems = inspected.flatMap((r) => r.problems);
  for (const dir of taskDirs) problems.push(...(await directoriesNamedLikeTaskFiles(dir)));

  const rubricFiles: RubricFileStatus[] = [];
  const allRubricFiles = layout === 'physvec' ? await rubricFilesIn(path.join(root, 'rubrics')) : await rubricFilesIn(path.join(root, 'Rubrics'));
  for (const file of allRubricFiles) {
    const referencedBy = tasks.filter((t) => t.rubric.path === file).map((t) => t.id);
    let pending = rubricCache.get(file);
    if (!pending) {
      pending = loadRubricFile(file);
      rubricCache.set(file, pending);
      problems.push(...(await pending).problems);
    }
    const r = await pending;
    const status: RubricFileStatus = { file, referencedBy, valid: r.tree !== undefined && !r.problems.some((p) => p.severity === 'error') };
    if (r.leaves) status.leaves = r.leaves.length;
    if (r.normCheck) status.normCheck = r.normCheck;
    rubricFiles.push(status);
  }
  return { root, layout, taskFiles, tasks, rubricFiles, problems: dedupe(problems) };
}

/** `<root>/<topic>/tasks` folders of a QMP-Bench root, in natural order. */
async function qmpTaskDirs(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const folder of await subdirectories(root)) {
    if (folder === 'Rubrics') continue;
    const tasksDir = path.join(root, folder, 'tasks');
    if (await isDirectory(tasksDir)) out.push(tasksDir);
  }
  return out;
}

async function subfoldersOf(dir: string): Promise<string[]> {
  return (await isDirectory(dir)) ? (await subdirectories(dir)).map((d) => path.join(dir, d)) : [];
}

/** A folder called `task_x.json` among task files is skipped by the scan; say so, it was probably meant as a file. */
async function directoriesNamedLikeTaskFiles(dir: string): Promise<Problem[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && e.name.toLowerCase().endsWith('.json'))
    .map((e) => warningAt(path.join(dir, e.name), 'is a directory named like a task file; it was skipped (a task is a JSON file: move its content into a file of that name, or rename the directory)'));
}

/** Rubric files one folder down (`<dir>/<topic>/*.json`) plus, for our own suite, `<dir>/*.json`. */
async function rubricFilesIn(dir: string): Promise<string[]> {
  if (!(await isDirectory(dir))) return [];
  const nested = await jsonFilesIn(dir, 1);
  const top = path.basename(dir) === 'Rubrics' ? [] : await jsonFilesIn(dir, 0);
  return [...top, ...nested];
}

/** `*.json` files in `dir` (depth 0) or in its subfolders (depth 1), sorted naturally (task_1_10 after task_1_9). */
async function jsonFilesIn(dir: string, depth: 0 | 1): Promise<string[]> {
  if (depth === 1) {
    const nested = await Promise.all((await subdirectories(dir)).map((d) => jsonFilesIn(path.join(dir, d), 0)));
    return nested.flat();
  }
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json'))
    .map((e) => e.name)
    .sort(naturalOrder)
    .map((n) => path.join(dir, n));
}

async function subdirectories(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort(naturalOrder);
}

function naturalOrder(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.severity}|${formatProblem(p)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
