// Which scripts `tasks validate --run` puts through the verifiers: every task's reference solution
// (expected: passed) and each of its mutants (expected: the stage and function its <name>.json says).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describeZodError } from '../../lib/errors.js';
import { isDirectory, isFile } from '../../lib/tasks/layout.js';
import type { LoadedDataset } from '../../lib/tasks/dataset.js';
import { MutantMeta, type ValidationInput } from '../../schemas/validation.js';

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
      const metaFile = path.join(dir, `${name}.json`);
      const scriptFile = [path.join(dir, `${name}.py`), path.join(dir, `${name}.jl`)];
      const script = (await isFile(scriptFile[0]!)) ? scriptFile[0]! : (await isFile(scriptFile[1]!)) ? scriptFile[1]! : undefined;
      const entry: SuiteEntry = { ...common, script: name, kind: 'mutant', input: inputFor(script ?? scriptFile[0]!), expected: { stage: 'scientific' } };
      if (!keep(entry)) continue;
      let raw: unknown;
      try {
        raw = JSON.parse(await readFile(metaFile, 'utf8'));
      } catch (err) {
        entries.push({ ...entry, problem: `${rel(metaFile)}: not JSON: ${(err as Error).message}` });
        continue;
      }
      const meta = MutantMeta.safeParse(raw);
      if (!meta.success) entries.push({ ...entry, problem: describeZodError(meta.error, rel(metaFile)) });
      else if (!script) entries.push({ ...entry, problem: `${rel(metaFile)} has no script beside it (${name}.py)` });
      else entries.push({ ...entry, expected: { stage: meta.data.expectedStage, faultyFunction: meta.data.faultyFunction, caughtBy: meta.data.caughtBy, fault: meta.data.fault } });
    }
  }
  return { entries, withoutReference };
}
