// Where a task's companions live, for the two layouts we read:
//   qmp-bench (as published): <root>/<topic>/tasks/task_*.json, source <root>/<topic>/<pdf_path>/<pdf_name>.tex,
//                             rubric <root>/Rubrics/<topic>/<rubrics_name>
//   physvec (our suite):      <root>/data/tasks/<topic>/<id>.json, source/digest <root>/data/papers/<pdf_name>.{tex,md},
//                             rubric <root>/rubrics/<topic>/<rubrics_name> (or <root>/rubrics/<rubrics_name>)
// A task file outside both is `standalone`: it loads, but has no source or rubric to find.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DatasetLayout } from '../../schemas/task.js';
import { canonicalTopic } from './topics.js';

export interface TaskLocation {
  layout: DatasetLayout;
  root: string | null;
  /** Folder the task sits in, when the layout gives one. */
  topicFolder?: string;
}

export async function isDirectory(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isDirectory(), () => false);
}

export async function isFile(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isFile(), () => false);
}

/** Layout of a dataset root directory, or undefined when it is neither layout. */
export async function detectRootLayout(root: string): Promise<Exclude<DatasetLayout, 'standalone'> | undefined> {
  if (await isDirectory(path.join(root, 'data', 'tasks'))) return 'physvec';
  if (path.basename(root) === 'tasks' && path.basename(path.dirname(root)) === 'data') return 'physvec';
  if (path.basename(root) === 'data' && (await isDirectory(path.join(root, 'tasks')))) return 'physvec';
  if (await isDirectory(path.join(root, 'Rubrics'))) return 'qmp-bench';
  return undefined;
}

/** The physvec root for a path that may be the repo root, its data folder or its data/tasks folder. */
export function physvecRootOf(root: string): string {
  if (path.basename(root) === 'tasks' && path.basename(path.dirname(root)) === 'data') return path.dirname(path.dirname(root));
  if (path.basename(root) === 'data' && !existsSync(path.join(root, 'data', 'tasks'))) return path.dirname(root);
  return root;
}

/**
 * Finds the dataset a task file belongs to: the given root, else the nearest ancestor that is
 * `<root>/<topic>/tasks/<file>` (qmp-bench) or `<root>/data/tasks/<topic>/<file>` (physvec).
 */
export async function locateTaskFile(file: string, datasetRoot?: string): Promise<TaskLocation> {
  const abs = path.resolve(file);
  if (datasetRoot !== undefined) {
    const root = path.resolve(datasetRoot);
    const layout = await detectRootLayout(root);
    if (layout === 'physvec') {
      const base = physvecRootOf(root);
      return { layout, root: base, topicFolder: folderUnder(path.join(base, 'data', 'tasks'), abs, 0) };
    }
    if (layout === 'qmp-bench') return { layout, root, topicFolder: folderUnder(root, abs, 1) };
  }
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    const rel = path.relative(dir, abs).split(path.sep);
    if (rel.length === 3 && rel[1] === 'tasks' && ((await isDirectory(path.join(dir, 'Rubrics'))) || canonicalTopic(rel[0]!))) {
      return { layout: 'qmp-bench', root: dir, topicFolder: rel[0] };
    }
    if (rel.length === 4 && rel[0] === 'data' && rel[1] === 'tasks') return { layout: 'physvec', root: dir, topicFolder: rel[2] };
    if (path.dirname(dir) === dir) break;
  }
  return { layout: 'standalone', root: null, topicFolder: undefined };
}

/** The first path segment below `base` when `file` is at `<base>/<folder>/…` with `depthAfter` more folders. */
function folderUnder(base: string, file: string, depthAfter: number): string | undefined {
  const rel = path.relative(base, file).split(path.sep);
  return rel.length === depthAfter + 2 && rel[0] !== '..' ? rel[0] : undefined;
}

/** True when `p` is `dir` or inside it. */
export function isInside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
