// Everything a reference validation needs, read once: the task's cases and truths, the script under
// test (for a mutant, its solution with the input's edits put in) and the reference solution (both
// stored and summarised), and the suite's own variant mains and convergence schedules from the
// reference folder. Missing variant files are reported per case, not thrown: a missing file is a
// finding about the suite, shown in the table.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import { BadInputError, describeZodError } from '../../lib/errors.js';
import { repoRoot } from '../../lib/paths.js';
import { isFile, isInside } from '../../lib/tasks/layout.js';
import { inspectTaskFile } from '../../lib/tasks/load-task.js';
import { formatProblem } from '../../lib/input-files/problems.js';
import { ConvergenceSchedule, ValidationInput, type ValidationConvergenceCase, type ValidationMaterial } from '../../schemas/validation.js';
import { summarizeScript, type ScriptLanguage } from '../pipeline/script-summary.js';
import { applyEdits } from '../../lib/tasks/source-edits.js';

/** The reference solution inside a reference folder. */
export const REFERENCE_SCRIPT = 'solution.py';

function inside(root: string, p: string, field: string): string {
  const abs = path.resolve(root, p);
  if (!isInside(root, abs)) throw new BadInputError(`${field} ${p} resolves to ${abs}, outside the dataset root ${root}; give a path inside it`, abs, field);
  return abs;
}

function languageOf(file: string): ScriptLanguage {
  if (file.endsWith('.py')) return 'python';
  if (file.endsWith('.jl')) return 'julia';
  throw new BadInputError(`${file}: not a Python (.py) or Julia (.jl) script`, file, 'scriptPath');
}

async function readRequired(file: string, field: string): Promise<string> {
  if (!(await isFile(file))) throw new BadInputError(`${file}: no such file (${field})`, file, field);
  return readFile(file, 'utf8');
}

async function readOptional(file: string): Promise<string | undefined> {
  return (await isFile(file)) ? readFile(file, 'utf8') : undefined;
}

export async function loadValidationMaterial(store: ArtifactStore, raw: ValidationInput): Promise<ValidationMaterial> {
  const input = ValidationInput.parse(raw);
  const root = path.resolve(input.root ?? repoRoot);
  const taskFile = inside(root, input.taskFile, 'taskFile');
  const scriptFile = inside(root, input.scriptPath, 'scriptPath');
  const refDir = inside(root, input.referenceDir, 'referenceDir');

  const inspected = await inspectTaskFile(taskFile, { datasetRoot: root });
  if (!inspected.task) throw new BadInputError(inspected.problems.map(formatProblem).join('\n') || `${taskFile}: not a task file`, taskFile);
  const loaded = inspected.task;
  const t = loaded.task;

  const language = languageOf(scriptFile);
  const [original, referenceText] = await Promise.all([
    readRequired(scriptFile, 'scriptPath'),
    readRequired(path.join(refDir, REFERENCE_SCRIPT), 'referenceDir'),
  ]);
  const scriptText = input.edits ? applyEdits(original, input.edits, { file: 'validation input', field: 'edits' }, input.scriptPath) : original;
  const [script, reference] = await Promise.all([summarizeScript(store, scriptText, language), summarizeScript(store, referenceText, language)]);

  const ext = path.extname(scriptFile);
  const cases: ValidationMaterial['cases'] = [];
  const variants: ValidationMaterial['variants'] = [];
  const missing: ValidationMaterial['missing'] = [];
  const kinds = [
    ['limiting', t.LimitingCases ?? []],
    ['scientific', t.ScientificResults ?? []],
  ] as const;
  for (const [kind, list] of kinds) {
    for (const [k, c] of list.entries()) {
      const id = `${kind}:${k}`;
      cases.push({ id, content: c.content, truth: c.truth });
      const file = path.join(refDir, kind, `${k}.main${ext}`);
      const main = await readOptional(file);
      if (main === undefined) missing.push({ case: id, problem: `no variant main in ${path.relative(root, file)}` });
      else variants.push({ case: id, main });
    }
  }

  const convergence: ValidationConvergenceCase[] = [];
  for (const [k, c] of (t.ConvergenceCases ?? []).entries()) {
    const id = `convergence:${k}`;
    const base = { id, parameter: c.parameter, criteria: c.criteria };
    const mainFile = path.join(refDir, 'convergence', `${k}.main${ext}`);
    const scheduleFile = path.join(refDir, 'convergence', `${k}.schedule.json`);
    const [main, scheduleText] = await Promise.all([readOptional(mainFile), readOptional(scheduleFile)]);
    if (main === undefined || scheduleText === undefined) {
      convergence.push({ ...base, problem: `missing ${[main === undefined ? mainFile : '', scheduleText === undefined ? scheduleFile : ''].filter(Boolean).map((f) => path.relative(root, f)).join(' and ')}` });
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(scheduleText);
    } catch (err) {
      convergence.push({ ...base, problem: `${path.relative(root, scheduleFile)}: not JSON: ${(err as Error).message}` });
      continue;
    }
    const schedule = ConvergenceSchedule.safeParse(json);
    if (!schedule.success) convergence.push({ ...base, problem: describeZodError(schedule.error, path.relative(root, scheduleFile)) });
    else convergence.push({ ...base, variant: { main, schedule: schedule.data } });
  }

  return {
    taskId: loaded.id,
    topic: loaded.topic,
    profile: typeof t.toolchain === 'string' ? t.toolchain : '',
    script,
    reference,
    cases,
    variants,
    missing,
    convergence,
  };
}
