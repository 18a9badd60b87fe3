// Scans a whole dataset (QMP-Bench as published, or our suite) and loads every task and rubric file.
// Rubric files no task points at are validated too, so a broken one cannot hide until it is used.
// Not scanned: QMP-Bench's empty template Rubrics/rubrics.json (it has no leaves by design).
// A symlinked task file is followed when its target is a regular file inside the dataset root (a
// dataset may share one task between folders that way); any other link is skipped with a warning
// saying why (outside the root: a scan reads nothing beyond the dataset; broken: nothing to read).
import { readdir, realpath, stat } from 'node:fs/promises';
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
  const linked = await Promise.all(taskDirs.map((d) => symlinkedJsonFiles(d, root)));
  const taskFiles = (await Promise.all(taskDirs.map((d, i) => jsonFilesIn(d, 0).then((f) => [...f, ...linked[i]!.follow].sort(naturalOrder))))).flat();

  const rubricCache = new Map<string, Promise<LoadedRubric>>();
  const inspected = await Promise.all(taskFiles.map((f) => inspectTaskFile(f, { ...opts, datasetRoot: root, rubricCache })));
  const tasks = inspected.flatMap((r) => (r.task ? [r.task] : []));
  const problems = inspected.flatMap((r) => r.problems);
  for (const dir of taskDirs) problems.push(...(await directoriesNamedLikeTaskFiles(dir)));
  for (const l of linked) problems.push(...l.problems);

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

/** `*.json` symbolic links in `dir`: the ones to follow (target a file inside `root`) and a warning for each other one. */
async function symlinkedJsonFiles(dir: string, root: string): Promise<{ follow: string[]; problems: Problem[] }> {
  const entries = await readdir(dir, { withFileTypes: true });
  const follow: string[] = [];
  const problems: Problem[] = [];
  const realRoot = await realpath(root);
  for (const e of entries.filter((x) => x.isSymbolicLink() && x.name.toLowerCase().endsWith('.json'))) {
    const link = path.join(dir, e.name);
    const target = await realpath(link).catch(() => undefined);
    const isFile = target !== undefined && (await stat(target).then((st) => st.isFile(), () => false));
    const inside = target !== undefined && !path.relative(realRoot, target).startsWith('..') && !path.isAbsolute(path.relative(realRoot, target));
    if (isFile && inside) follow.push(link);
    else {
      const why = target === undefined ? 'a broken symbolic link (its target does not exist)' : !isFile ? `a symbolic link to ${target}, which is not a file` : `a symbolic link to ${target}, outside the dataset root ${realRoot}`;
      problems.push(warningAt(link, `is ${why}; it was skipped (copy the task file into the dataset, or link to a file inside it)`));
    }
  }
  return { follow, problems };
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
