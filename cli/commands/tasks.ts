// `physvec tasks validate <dataset-root> [--json] [--run]`: loads every task and rubric file of a
// dataset (QMP-Bench as published, or our own suite) and says, per task, what it has and lacks.
// `physvec tasks prepare <dataset-root> [--json] [--toolchain <profile>]…`: every task through what a
// reproduction does before its first LLM call (cli/runs/prepare-pass.ts).
// Exit codes (DESIGN §9): 0 every file valid, 2 bad input (an invalid file, or no dataset at the path);
// prepare: 1 when every file is valid but some task cannot be prepared here (e.g. no toolchain for it).
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { BadInputError } from '../../lib/errors.js';
import type { LoadedDataset } from '../../lib/tasks/dataset.js';
import { escapeInvisible } from '../../lib/tasks/invisible.js';
import { formatProblem } from '../../lib/input-files/problems.js';
import type { TaskValidationLine, ValidationReport } from '../../lib/tasks/validation-report.js';
import { toolchainLabel, type PreparedTaskLine, type TopicPrepareSummary } from '../../lib/tasks/prepare-report.js';
import type { PreparePassOptions, PreparePassReport } from '../runs/prepare-pass.js';
import { textTable } from '../text-table.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_BAD_INPUT = 2;

export interface TasksValidateOptions {
  json?: boolean;
  run?: boolean;
  /** With --run: only the scripts whose `<task>/<reference|mutant>` contains one of these. */
  only?: string[];
  /** With --run: false skips the mutants (commander's --no-mutants). */
  mutants?: boolean;
  concurrency?: number;
  /** With --run: seconds per sandbox run. */
  runTimeout?: number;
}

/** Runs the validated tasks (default: cli/runs/validate-suite.ts); returns the exit code of the whole command. */
export type RunValidatedTasks = (
  dataset: LoadedDataset,
  report: ValidationReport,
  opts: { json: boolean; out: (line: string) => void; err?: (line: string) => void; only?: string[]; mutants?: boolean; concurrency?: number; runTimeoutMs?: number },
) => Promise<number>;

/** Default `--run`: every reference and mutant through the verifiers (loaded on demand: it brings the Temporal SDK). */
const runSuite: RunValidatedTasks = async (dataset, report, opts) => (await import('../runs/validate-suite.js')).runSuiteValidation(dataset, report, opts);

export interface TasksCommandDeps {
  runValidatedTasks?: RunValidatedTasks;
  /** What `tasks prepare` treats as installed (default: detection on this machine). */
  preparePass?: PreparePassOptions['available'];
  out?: (line: string) => void;
  err?: (line: string) => void;
  setExitCode?: (code: number) => void;
}

export function register(program: Command, deps: TasksCommandDeps = {}): void {
  const tasks = program.command('tasks').description('inspect QMP-Bench style task datasets');
  tasks
    .command('validate')
    .description(
      'load every task file and rubric of a dataset; per task: topic, figure, TeX source found or not published, ' +
        'rubric NormCheck, and counts of limiting/convergence/scientific cases',
    )
    .argument('<dataset-root>', 'QMP-Bench Paper_dataset folder, or a physvec repo root or its data folder (data/tasks/<topic>/*.json)')
    .option('--json', 'print one JSON document on stdout, nothing else')
    .option('--run', 'after validation, put every reference solution and mutant through the verifiers and print a table')
    .option('--only <substring>', 'with --run: only scripts whose <task>/<reference|mutant name> contains this (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--no-mutants', 'with --run: references only')
    .option('--concurrency <n>', 'with --run: validations in flight at once (default: simulation slots)', positiveInteger)
    .option('--run-timeout <seconds>', 'with --run: CPU-time limit of each sandbox run (default 300)', positiveInteger)
    .addHelpText(
      'after',
      '\nExit codes: 0 every file valid; 2 bad input (invalid task or rubric file, or no dataset there).' +
        '\nWith --run: 1 when a reference is not green or a mutant is not caught at its stage with its function named.',
    )
    .action(async (root: string, opts: TasksValidateOptions) => {
      const code = await tasksValidate(root, opts, deps);
      (deps.setExitCode ?? ((c: number) => (process.exitCode = c)))(code);
    });
  tasks
    .command('show')
    .description(
      'what a reproduction of one task would use, with no model and no server: the source found, for dft tasks the protocol file ' +
        'and its translation table, and every limiting, scientific and convergence case with how it will be checked',
    )
    .argument('<task.json>', 'a task file')
    .option('--dataset <root>', 'dataset root the companion files are resolved against (default: found from the task file)')
    .option('--json', 'print one JSON document on stdout, nothing else')
    .option('--toolchain <profile>', 'use this profile (substituting if needed), as reproduce --toolchain')
    .addHelpText('after', '\nExit codes: 0 shown; 2 bad input (an invalid task file, an unknown --toolchain).')
    .action(async (file: string, opts: { dataset?: string; json?: boolean; toolchain?: string }) => {
      const code = await tasksShow(file, { ...opts, toolchain: opts.toolchain ? [opts.toolchain] : undefined }, deps);
      (deps.setExitCode ?? ((c: number) => (process.exitCode = c)))(code);
    });
  tasks
    .command('prepare')
    .description(
      'run, for every task, what a reproduction does before its first LLM call (topic, toolchain and substitution, adapted request and rubric, ' +
        'source and protocol, truths and tolerances, NormCheck) and say which tasks are runnable here, with what, and what each lacks',
    )
    .argument('<dataset-root>', 'QMP-Bench Paper_dataset folder, or a physvec repo root or its data folder')
    .option('--json', 'print one JSON document on stdout, nothing else')
    .option('--toolchain <profile>', 'use this profile for the tasks of its topic, substituting if needed (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .addHelpText('after', '\nExit codes: 0 every task preparable; 1 some task cannot be prepared here (e.g. its toolchain is absent); 2 bad input (an invalid task file, no dataset there, an unknown --toolchain).')
    .action(async (root: string, opts: { json?: boolean; toolchain?: string[] }) => {
      const code = await tasksPrepare(root, opts, deps);
      (deps.setExitCode ?? ((c: number) => (process.exitCode = c)))(code);
    });
}

/** `tasks show`, callable without commander; returns the exit code. */
export async function tasksShow(file: string, opts: { dataset?: string; json?: boolean; toolchain?: string[] }, deps: TasksCommandDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { showTask } = await import('../runs/task-show.js');
  const { renderTranslationTable } = await import('../../lib/protocols/translation.js');
  const { getProfile } = await import('../../lib/toolchains/config.js');
  for (const name of opts.toolchain ?? []) getProfile(name);
  const show = await showTask(file, { ...(opts.dataset ? { dataset: opts.dataset } : {}), ...(opts.toolchain ? { toolchain: opts.toolchain } : {}), ...(deps.preparePass ? { available: deps.preparePass } : {}) });
  if (opts.json) {
    out(JSON.stringify(show, null, 2));
    return EXIT_OK;
  }
  const where = (p: string | null) => (p && show.root ? path.relative(show.root, p) : (p ?? '-'));
  out(`${show.id} (${show.topic}): ${show.file}`);
  out(`toolchain: ${show.toolchain}${show.substituteFor ? ` (standing in for ${show.substituteFor})` : ''}${show.needsFlag ? `; a reproduction here needs ${show.needsFlag}` : ''}`);
  out(`source: ${show.source.kind}${show.source.path ? ` ${where(show.source.path)}` : ''}${show.source.tried?.length ? ` (TeX not found; tried ${show.source.tried.map(where).join(', ')})` : ''}`);
  if (show.protocol) out(show.protocol.found ? `protocol: ${where(show.protocol.file)} (${show.protocol.calculations} calculations)` : `protocol: not published (tried ${(show.protocol.tried ?? []).join(', ')})`);
  out(`rubric: ${show.rubric.available ? `${show.rubric.leaves} leaves` : `not available (${show.rubric.reason ?? 'none'})`}`);
  const cases = (title: string, list: readonly { content: string; truth: string; checkedBy: string }[]) => {
    out(`${title}: ${list.length}`);
    list.forEach((c, i) => [`  ${i + 1}. ${c.content}`, `     truth: ${c.truth}`, `     checked ${c.checkedBy}`].forEach((l) => out(l)));
  };
  cases('limiting cases', show.limitingCases);
  cases('scientific results', show.scientificResults);
  out(`convergence cases: ${show.convergenceCases.length}`);
  show.convergenceCases.forEach((c, i) => [`  ${i + 1}. ${c.content} (raise ${c.parameter})`, `     criteria: ${c.criteria}`, `     tolerance: ${c.tolerance}`].forEach((l) => out(l)));
  if (show.translation) {
    const n = show.translation.counts;
    out(`translation ${show.translation.from} → ${show.translation.to}: ${n.rows} items (${n.equivalent} equivalent, ${n.nearest} nearest, ${n.noEquivalent} no equivalent, ${n.notNeeded} not needed, ${n.notTranslated} not translated)`);
    for (const l of renderTranslationTable(show.translation.rows, show.translation.from, show.translation.to).split('\n')) out(l);
  }
  if (show.lacks.length) out(`lacks: ${show.lacks.join('; ')}`);
  return EXIT_OK;
}

/** `tasks prepare`, callable without commander; returns the exit code. */
export async function tasksPrepare(root: string, opts: { json?: boolean; toolchain?: string[] }, deps: TasksCommandDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = deps.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  let report: PreparePassReport;
  try {
    const { getProfile } = await import('../../lib/toolchains/config.js'); // here, not at the top: `--help` stays light
    for (const name of opts.toolchain ?? []) getProfile(name);
    const { preparePass } = await import('../runs/prepare-pass.js');
    report = await preparePass(root, { ...(opts.toolchain ? { toolchains: opts.toolchain } : {}), ...(deps.preparePass ? { available: deps.preparePass } : {}) });
  } catch (e) {
    if (!(e instanceof BadInputError)) throw e;
    if (opts.json) out(JSON.stringify({ ok: false, root, error: e.message }, null, 2));
    else err(e.message.startsWith('unknown toolchain') ? `--toolchain: ${e.message}` : e.message);
    return EXIT_BAD_INPUT;
  }
  if (opts.json) out(JSON.stringify(report, null, 2));
  else printPrepare(report, out);
  return report.ok ? EXIT_OK : report.summary.invalidFiles > 0 ? EXIT_BAD_INPUT : EXIT_FAILED;
}

function printPrepare(report: PreparePassReport, out: (line: string) => void): void {
  const rows = report.tasks.map((l) => {
    const head = [l.id, l.topic ?? '?', toolchainLabel(l)];
    if (!l.preparable) return [...head, `NOT PREPARABLE: ${l.error}`];
    const cases = `limiting ${casesText(l.limiting!)}, scientific ${casesText(l.scientific!)}, convergence ${l.convergence!.cases}${l.convergence!.defaultCriteria ? ` (${l.convergence!.defaultCriteria} default criterion)` : ''}`;
    const rubric = l.rubric!.available ? `rubric ${l.rubric!.leaves} leaves, NormCheck ok${l.rubric!.adaptedLeaves ? `, ${l.rubric!.adaptedLeaves} adapted` : ''}` : 'rubric not available';
    const file = l.protocolFile ? `; protocol ${path.relative(report.root, l.protocolFile)}` : l.protocol === 'not published' ? '; protocol not published' : '';
    const tr = l.translation ? `${file}, translated: ${l.translation.rows} items, ${l.translation.noEquivalent} with no equivalent, ${l.translation.notTranslated} not translated` : file;
    // Three aligned columns, then the line's free text (as before the table library).
    return [...head, `source ${l.source!.padEnd(8)}  ${rubric}  ${cases}${tr}${l.lacks.length ? `; lacks: ${l.lacks.join(', ')}` : ''}`];
  });
  for (const l of textTable([], rows)) out(l);
  for (const [topic, s] of Object.entries(report.byTopic).sort(([a], [b]) => a.localeCompare(b))) out(topicLine(topic, s));
  const s = report.summary;
  const tcs = report.toolchains.map((t) => `${t.profile} ${t.available ? (t.version ?? 'available') : 'absent'}`).join(', ');
  out(`${s.taskFiles} task files: ${s.preparable} preparable, ${s.notPreparable} not preparable${s.invalidFiles ? ` (${s.invalidFiles} invalid task files)` : ''}; toolchains here: ${tcs}`);
}

function casesText(c: NonNullable<PreparedTaskLine['limiting']>): string {
  if (c.cases === 0) return '0';
  const parts = [c.numeric && `${c.numeric} numeric`, c.property && `${c.property} by property`, c.llm && `${c.llm} by LLM`, c.defaultTolerance && `${c.defaultTolerance} default tolerance`].filter(Boolean);
  return `${c.cases} (${parts.join(', ')})`;
}

/** One line per topic: how many tasks prepare, with which toolchain, from which source, with which tests. */
export function topicLine(topic: string, s: TopicPrepareSummary): string {
  const kv = (r: Record<string, number>) => Object.entries(r).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  return (
    `${topic}: ${s.tasks} tasks, ${s.preparable} preparable; toolchain ${kv(s.toolchains)}; source ${kv(s.sources)}; rubric ${s.withRubric}; ` +
    `cases: limiting ${s.limitingCases}, scientific ${s.scientificResults}, convergence ${s.convergenceCases} (${s.llmJudged} judged by LLM, ${s.defaultTolerances} with a default tolerance)`
  );
}

function positiveInteger(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a positive integer');
  return n;
}

/** The command itself, callable without commander; returns the exit code. */
export async function tasksValidate(root: string, opts: TasksValidateOptions, deps: TasksCommandDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = deps.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  const json = opts.json === true;
  // Imported here, not at the top: `--help` loads only the declarations.
  const [{ loadDataset }, { validationReport }] = await Promise.all([import('../../lib/tasks/dataset.js'), import('../../lib/tasks/validation-report.js')]);
  let dataset: LoadedDataset;
  try {
    dataset = await loadDataset(root);
  } catch (e) {
    if (!(e instanceof BadInputError)) throw e;
    if (json) out(JSON.stringify({ ok: false, root, error: e.message }, null, 2));
    else err(e.message);
    return EXIT_BAD_INPUT;
  }
  const report = validationReport(dataset);
  if (opts.run) {
    if (!json) printReport(report, out);
    const run = deps.runValidatedTasks ?? runSuite;
    return run(dataset, report, { json, out, err, only: opts.only, mutants: opts.mutants, concurrency: opts.concurrency, runTimeoutMs: opts.runTimeout ? opts.runTimeout * 1000 : undefined });
  }
  if (json) out(JSON.stringify(report, null, 2));
  else printReport(report, out);
  return report.ok ? EXIT_OK : EXIT_BAD_INPUT;
}

function printReport(report: ValidationReport, out: (line: string) => void): void {
  for (const l of textTable([], report.tasks.map(rowOf))) out(l);
  for (const r of report.rubricFiles.filter((r) => r.referencedBy.length === 0)) {
    const state = !r.valid ? (r.normCheck && !r.normCheck.ok ? 'NormCheck failed' : 'invalid') : 'ok';
    out(`rubric not used by any task: ${r.file} (${state})`);
  }
  const s = report.summary;
  const topics = Object.entries(s.byTopic).map(([t, n]) => `${t} ${n}`).join(', ');
  out(
    `${s.taskFiles} task files (${topics}): ${s.valid} valid, ${s.invalid} invalid; ` +
      `source found ${s.sourceFound}, not published ${s.sourceNotPublished}; ` +
      (s.protocolFound + s.protocolNotPublished > 0 ? `protocol found ${s.protocolFound}, not published ${s.protocolNotPublished}; ` : '') +
      `rubric ok ${s.rubric.ok}, NormCheck failed ${s.rubric['NormCheck failed']}, invalid ${s.rubric.invalid}, not published ${s.rubric['not published']}; ` +
      `${s.errors} errors, ${s.warnings} warnings`,
  );
  for (const p of report.problems) out(`${p.severity}: ${formatProblem(p)}`);
}

function rowOf(l: TaskValidationLine): string[] {
  const head = [l.id, l.topic ?? '?', figure(l)];
  if (!l.counts) return [...head, 'INVALID (see errors below)', '', ''];
  const cases = `limiting ${l.counts.limitingCases}, convergence ${l.counts.convergenceCases}, scientific ${l.counts.scientificResults}`;
  const protocol = l.protocol === null ? '' : l.protocol === 'found' ? '  protocol found' : `  protocol not published (tried ${l.protocolTried.join(', ')})`;
  return [...head, `source ${l.source}`, rubricColumn(l), `${cases}${protocol}`];
}

/** The figure name as a reader can check it: invisible characters (published in some names) escaped. */
function figure(l: TaskValidationLine): string {
  return l.figure === null ? '?' : escapeInvisible(l.figure);
}

function rubricColumn(l: TaskValidationLine): string {
  if (!l.counts) return '';
  if (l.rubric === 'not published') return 'rubric not published';
  const detail = l.normCheckTotal === null ? '' : ` (${l.counts.rubricLeaves} leaves, NormCheck total ${fmt(l.normCheckTotal)})`;
  return `rubric ${l.rubric}${detail}`;
}

function fmt(x: number): string {
  return Number(x.toFixed(6)).toString();
}
