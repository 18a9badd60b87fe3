// Candidate paths of a task's companion files (TeX source, calculation protocol, digest, reference
// solution, rubric) in its layout. Paths come from the task file, so each is checked to stay inside the dataset (or our repo):
// a task must not make us read, and pass to an LLM, an arbitrary file.
import path from 'node:path';
import { dataDir, repoRoot } from '../paths.js';
import type { Task, Topic } from '../../schemas/task.js';
import { isInside, type TaskLocation } from './layout.js';
import { articleFileStems } from './article-names.js';
import { topicNames } from './topics.js';

export interface CompanionPaths {
  /** Candidates in order of preference; empty when the layout has nowhere to look. */
  source: string[];
  /** dft tasks: the article's ORCA inputs (`<topic>/<pdf_path>/<name>.json`), beside the TeX. */
  protocol: string[];
  digest: string[];
  reference: string[];
  rubric: string[];
  /** Fields whose path escapes the allowed folders: field → resolved path. */
  escapes: Array<{ field: string; resolved: string }>;
}

export interface CompanionOptions {
  /** Where our paper digests live for QMP-Bench tasks (default: the repo's data/papers). */
  papersDir?: string;
}

export function companionPaths(task: Task, loc: TaskLocation, topic: Topic | undefined, opts: CompanionOptions = {}): CompanionPaths {
  const out: CompanionPaths = { source: [], protocol: [], digest: [], reference: [], rubric: [], escapes: [] };
  const root = loc.root;
  const folders = unique([loc.topicFolder, ...(topic ? topicNames(topic) : [])]);
  const ourPapers = opts.papersDir ?? path.join(dataDir, 'papers');
  const allowed = (p: string) => (root !== null && isInside(root, p)) || isInside(repoRoot, p) || isInside(ourPapers, p);
  const add = (list: string[], field: string, p: string) => {
    const resolved = path.resolve(p);
    if (allowed(resolved)) list.push(resolved);
    else out.escapes.push({ field, resolved });
  };

  if (loc.layout === 'qmp-bench' && root !== null) {
    if (loc.topicFolder) {
      // The authors name some articles' files differently from the task (jacs.5b10819 → ja5b10819.json).
      const dir = path.join(root, loc.topicFolder, task.pdf_path);
      const stems = articleFileStems(task.pdf_name);
      for (const stem of stems) add(out.source, 'pdf_path', path.join(dir, `${stem}.tex`));
      if (topic === 'dft') for (const stem of stems) add(out.protocol, 'pdf_path', path.join(dir, `${stem}.json`));
    }
    for (const f of folders) add(out.rubric, 'rubrics_name', path.join(root, 'Rubrics', f, task.rubrics_name));
    add(out.digest, 'pdf_name', path.join(ourPapers, `${task.pdf_name}.md`));
  } else if (loc.layout === 'physvec' && root !== null) {
    add(out.source, 'pdf_name', path.join(root, 'data', 'papers', `${task.pdf_name}.tex`));
    for (const f of folders) add(out.rubric, 'rubrics_name', path.join(root, 'rubrics', f, task.rubrics_name));
    add(out.rubric, 'rubrics_name', path.join(root, 'rubrics', task.rubrics_name));
    add(out.digest, 'pdf_name', path.join(root, 'data', 'papers', `${task.pdf_name}.md`));
  }
  // Explicit paths are relative to the dataset root (the repo root for our suite).
  const base = root ?? repoRoot;
  const explicitDigest: string[] = [];
  if (task.digest !== undefined) add(explicitDigest, 'digest', path.resolve(base, task.digest));
  out.digest.unshift(...explicitDigest);
  if (task.reference !== undefined) add(out.reference, 'reference', path.resolve(base, task.reference));
  out.source = unique(out.source);
  out.protocol = unique(out.protocol);
  out.rubric = unique(out.rubric);
  out.digest = unique(out.digest);
  return out;
}

function unique(xs: Array<string | undefined>): string[] {
  return [...new Set(xs.filter((x): x is string => x !== undefined))];
}
