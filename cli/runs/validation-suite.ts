// Which scripts `tasks validate --run` puts through the verifiers: every task's reference solution
// (expected: passed) and each of its mutants (the solution with the edits of mutants/<name>.json;
// expected: the stage and function that file says).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isDirectory } from '../../lib/tasks/layout.js';
import type { LoadedDataset } from '../../lib/tasks/dataset.js';
import { loadMutant } from '../../lib/tasks/source-edits.js';
import type { ValidationInput } from '../../schemas/validation.js';

export interface SuiteEntry {
  taskId: string;
  topic: string;
  profile: string;
  /** `reference` or the mutant's name. */
  script: string;
  kind: 'reference' | 'mutant';
  input: ValidationInput;
  expected: { stage: 'passed' | 'programming' | 'scientific'; faultyFunction?: string; caughtBy?: string; fault?: string };
  /** Why this entry cannot run (e.g. an invalid mutant description); it is reported red without starting a workflow. */
  problem?: string;
}

export interface SuiteSelection {
  /** Keep entries whose `<task>/<script>` contains any of these substrings (all when empty). */
  only?: string[];
  /** Include the mutants (default true). */
  mutants?: boolean;
}

export interface Suite {
  entries: SuiteEntry[];
  /** Tasks that have no reference solution (nothing to validate). */
  withoutReference: string[];
}

export function entryLabel(e: Pick<SuiteEntry, 'taskId' | 'script'>): string {
  return `${e.taskId}/${e.script}`;
}

export async function suiteEntries(dataset: LoadedDataset, selection: SuiteSelection = {}): Promise<Suite> {
  const only = (selection.only ?? []).filter((s) => s.length > 0);
  const keep = (e: SuiteEntry) => only.length === 0 || only.some((s) => entryLabel(e).includes(s));
  const entries: SuiteEntry[] = [];
  const withoutReference: string[] = [];
  for (const task of dataset.tasks) {
    if (!task.reference.found || !task.reference.path) {
      withoutReference.push(task.id);
      continue;
    }
    const root = dataset.root;
    const rel = (p: string) => path.relative(root, p);
    const referenceDir = path.dirname(task.reference.path);
    const common = { taskId: task.id, topic: task.topic, profile: typeof task.task.toolchain === 'string' ? task.task.toolchain : '' };
    const inputFor = (script: string): ValidationInput => ({ taskFile: rel(task.file), scriptPath: rel(script), referenceDir: rel(referenceDir), root });
    const reference: SuiteEntry = { ...common, script: 'reference', kind: 'reference', input: inputFor(task.reference.path), expected: { stage: 'passed' } };
    if (keep(reference)) entries.push(reference);
    if (selection.mutants === false) continue;
    const dir = path.join(referenceDir, 'mutants');
    if (!(await isDirectory(dir))) continue;
    const names = (await readdir(dir)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
    for (const name of names) {
      // A mutant runs as its solution plus the edits of its <name>.json (no copy of the script is kept).
      const entry: SuiteEntry = { ...common, script: name, kind: 'mutant', input: inputFor(task.reference.path), expected: { stage: 'scientific' } };
      if (!keep(entry)) continue;
      try {
        const { meta } = await loadMutant(referenceDir, name, path.basename(task.reference.path));
        entries.push({
          ...entry,
          input: { ...entry.input, edits: meta.edits },
          expected: { stage: meta.expectedStage, faultyFunction: meta.faultyFunction, caughtBy: meta.caughtBy, fault: meta.fault },
        });
      } catch (err) {
        entries.push({ ...entry, problem: (err as Error).message.replaceAll(root + path.sep, '') });
      }
    }
  }
  return { entries, withoutReference };
}
