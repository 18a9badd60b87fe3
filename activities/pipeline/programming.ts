// Programming verifier steps that need no model: unit harnesses and integration levels as sandbox
// jobs, the full-script job, and the verdicts (by exit code, marker and traceback — not by an LLM).
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { KeptUnitTest, ProgrammingReport, RunDigest, ScriptJob, ScriptSummary } from '../../schemas/pipeline.js';
import { buildIntegrationLevels, buildUnitHarness, integrationLevelFileName, unitHarnessFileName } from '../../lib/harness/index.js';
import { programmingScores } from '../../lib/verification/programming-scores.js';
import { ERROR_LINES, judgeUnitRun } from '../../lib/harness/unit-verdict.js';
import { framesIn, tracebackFrames } from '../../lib/harness/traceback.js';
import { mentionedNames } from '../../lib/script-analysis/calls.js';
import { lexScript } from '../../lib/script-analysis/lex-script.js';
import { lastLines } from '../../lib/verification/suspects.js';
import { agentOutputSchemas } from '../../schemas/agent-outputs.js';
import { readAnswer, type AnswerRef } from './answers.js';
import { extensionOf, functionHash, loadStructure } from './script-summary.js';
import { selectBackground } from '../../lib/verifier-library/select.js';
import type { LibraryLocation } from '../../lib/verifier-library/load.js';
import { BadInputError } from '../../lib/errors.js';
import { jobId, type JobPurpose } from '../../schemas/job-purpose.js';
import { levelCompleted } from '../../schemas/script-markers.js';
import { withCallRecording } from '../../lib/harness/call-recording.js';

/**
 * Background functions of the verifier library offered to every unit harness: all categories, the
 * target's own included (an effector test may need a library effector to build its input, e.g. a
 * converged mean-field object), so the names the test writer is shown are exactly those the harness
 * contains. Empty when the profile has no library.
 */
export function backgroundFor(profile: string, library: LibraryLocation = {}): { functions: { category: string; source: string }[]; preamble: string; names: string[] } {
  try {
    // `item` is no library category: nothing is left out.
    const sel = selectBackground(profile, 'item', library);
    return { functions: sel.functions.map((f) => ({ category: f.category, source: f.source })), preamble: sel.preamble, names: sel.functions.map((f) => f.name) };
  } catch {
    return { functions: [], preamble: '', names: [] };
  }
}

type Structure = Awaited<ReturnType<typeof loadStructure>>['structure'];
type UnitEntry = { function: string; main: string };
/** A level run with its purpose read back (which run_ function, which level of how many, what it introduces). */
type LevelRun = { run: RunDigest; level: number; total: number; introduces: string[] };

/** The entry points of several answers (the first writing and its refines): a later one replaces an earlier one for the same function. */
async function latestEntries(store: ArtifactStore, answers: AnswerRef[]): Promise<Map<string, UnitEntry>> {
  const byFunction = new Map<string, UnitEntry>();
  for (const a of answers) {
    for (const e of (await readAnswer(store, a, agentOutputSchemas['unit-entries'], 'unit-test entry points')).entries) byFunction.set(e.function, e);
  }
  return byFunction;
}

/** The harness of one element function, or why none could be built from the writer's entry point. */
function unitHarnessFor(structure: Structure, fnName: string, entry: UnitEntry, profile: string, language: ScriptSummary['language'], library: LibraryLocation) {
  const bg = backgroundFor(profile, library);
  try {
    const harness = buildUnitHarness({
      structure, target: fnName, entryPoint: entry.main, language,
      background: bg.functions as Parameters<typeof buildUnitHarness>[0]['background'],
      extraPreamble: bg.preamble || undefined,
    });
    return { harness };
  } catch (err) {
    if (err instanceof BadInputError) return { problem: `the entry point could not be assembled into a harness: ${err.message}` };
    throw err;
  }
}

/** Whether an entry point mentions the function under test (calls it, or hands it on as a value). */
function entryCallsTarget(entry: UnitEntry, target: string, language: ScriptSummary['language']): boolean {
  return mentionedNames(lexScript(entry.main, language), new Set([target])).has(target);
}

/**
 * Unit harnesses for the entries of `answer` (or of `answers`, a later one's entry replacing an
 * earlier one's: the writer's answer, then the tests kept from earlier iterations); with `only`, just
 * for those functions (a refine round reruns the tests that were undetermined, nothing else).
 */
export async function buildUnitJobs(
  store: ArtifactStore,
  input: { summary: ScriptSummary; answer?: AnswerRef; answers?: AnswerRef[]; profile: string; only?: string[] },
  library: LibraryLocation = {},
): Promise<ScriptJob[]> {
  const { structure } = await loadStructure(store, input.summary);
  const entries = await latestEntries(store, input.answers ?? (input.answer ? [input.answer] : []));
  const jobs: ScriptJob[] = [];
  for (const fn of structure.elementFunctions) {
    if (input.only && !input.only.includes(fn.name)) continue;
    const entry = entries.get(fn.name);
    if (!entry) continue; // reported as undetermined by judgeProgramming
    const built = unitHarnessFor(structure, fn.name, entry, input.profile, input.summary.language, library);
    if (!built.harness) continue; // likewise: judgeProgramming names the problem
    const purpose: JobPurpose = { kind: 'unit', function: fn.name };
    jobs.push({ id: jobId(purpose), purpose, file: built.harness.fileName, ref: await store.put(built.harness.source, { name: built.harness.fileName }) });
  }
  return jobs;
}

/**
 * Integration levels as jobs; with `unsliced`, only those run_ functions' levels, each keeping all of
 * main's statements before its call (the rebuild of levels whose slice is suspect; same job ids, so
 * their runs replace the sliced ones).
 */
export async function buildLevelJobs(store: ArtifactStore, input: { summary: ScriptSummary; unsliced?: string[] }): Promise<ScriptJob[]> {
  const { structure } = await loadStructure(store, input.summary);
  const jobs: ScriptJob[] = [];
  for (const run of structure.runFunctions) {
    if (integrationUntestable(structure, run.name) || (input.unsliced && !input.unsliced.includes(run.name))) continue;
    for (const level of buildIntegrationLevels(structure, run.name, { slice: !input.unsliced })) {
      const purpose: JobPurpose = { kind: 'level', runFunction: run.name, level: level.level, totalLevels: level.totalLevels, introduces: level.introduces };
      jobs.push({ id: jobId(purpose), purpose, file: level.fileName, ref: await store.put(level.source, { name: level.fileName }) });
    }
  }
  return jobs;
}

export async function fullScriptJob(store: ArtifactStore, input: { summary: ScriptSummary; recordCalls?: boolean }): Promise<ScriptJob> {
  const purpose: JobPurpose = { kind: 'full' };
  const file = `main.${extensionOf(input.summary.language)}`;
  if (!input.recordCalls) return { id: jobId(purpose), purpose, file, ref: input.summary.scriptRef };
  // The final run records the calls of the script's functions: the report lists the parameters it actually used.
  const { structure } = await loadStructure(store, input.summary);
  const text = withCallRecording(structure, [...structure.elementFunctions, ...structure.runFunctions].map((f) => f.name));
  return { id: jobId(purpose), purpose, file, ref: text === structure.source ? input.summary.scriptRef : await store.put(text, { name: file }) };
}

/**
 * Why a run_ function has no integration levels (main never reaches it, or it calls no element
 * function), or undefined when it has them. Such a function is listed in the report as untested
 * and left out of the integration accuracy rather than failing the whole programming stage.
 */
export function integrationUntestable(structure: Parameters<typeof buildIntegrationLevels>[0], runName: string): string | undefined {
  try {
    buildIntegrationLevels(structure, runName);
    return undefined;
  } catch (err) {
    if (err instanceof BadInputError) return err.message;
    throw err;
  }
}

/**
 * The innermost traceback frame tells where a failure happened; with `among`, the innermost frame
 * of one of those functions (e.g. the script's element functions, skipping library frames below them).
 */
export function failingFunction(stderr: string, among?: ReadonlySet<string>): string | undefined {
  const ours = tracebackFrames(stderr).map((f) => f.fn).filter((f) => f !== '<module>' && (!among || among.has(f)));
  return ours[ours.length - 1];
}

/** The last lines of a traceback, kept as the traceback wrote them: the exception and where it was raised. */
export function lastError(stderr: string): string {
  return lastLines(stderr, ERROR_LINES);
}

/** Where a level failed: the innermost element function in the level's own frames, else its innermost script function. */
function levelBlame(run: RunDigest, fileName: string, elementNames: ReadonlySet<string>): string | undefined {
  const frames = framesIn(tracebackFrames(run.stderrTail), fileName).filter((f) => f.fn !== '<module>');
  return [...frames].reverse().find((f) => elementNames.has(f.fn))?.fn ?? frames[frames.length - 1]?.fn;
}

/**
 * Verdicts by code. `entries` are the test writer's answers in order (a refine's entries replace the
 * earlier ones of the same functions); `refined` counts, per function, the refines its test had.
 * Unit accuracy is over the tests that reached a verdict: an undetermined test says nothing about
 * the script, so it neither counts against it nor triggers a repair. `kept`: tests reused from an
 * earlier iteration; `rebuilt`: run_ functions whose levels were rebuilt unsliced — still failing
 * while the full script ran, they are the level's fault and listed as untested.
 */
export async function judgeProgramming(
  store: ArtifactStore,
  input: { iteration: number; summary: ScriptSummary; unitRuns: RunDigest[]; levelRuns: RunDigest[]; fullRun: RunDigest; entries?: AnswerRef[]; profile?: string; refined?: Record<string, number>; kept?: string[]; rebuilt?: string[] },
  library: LibraryLocation = {},
): Promise<ProgrammingReport> {
  const { structure } = await loadStructure(store, input.summary);
  const elementNames = new Set(structure.elementFunctions.map((f) => f.name));
  const entries = await latestEntries(store, input.entries ?? []);
  const judge_result = structure.elementFunctions.map((fn) => {
    const file = unitHarnessFileName(fn.name, input.summary.language);
    const refines = input.refined?.[fn.name] ?? 0;
    const kept = input.kept?.includes(fn.name) && !refines;
    const base = { target_file_name: file, function: fn.name, ...(refines ? { refines } : {}), ...(kept ? { kept: true } : {}) };
    const entry = entries.get(fn.name);
    const run = input.unitRuns.find((r) => r.purpose?.kind === 'unit' && r.purpose.function === fn.name);
    if (!entry) return { ...base, judge: 'undetermined' as const, errors: 'no entry point was written for this function' };
    const built = unitHarnessFor(structure, fn.name, entry, input.profile ?? '', input.summary.language, library);
    if (!built.harness) return { ...base, judge: 'undetermined' as const, errors: built.problem!, entry: entry.main };
    if (!run) return { ...base, judge: 'undetermined' as const, errors: 'the harness was not run', entry: entry.main };
    const v = judgeUnitRun({ target: fn.name, harness: built.harness, entryCallsTarget: entryCallsTarget(entry, fn.name, input.summary.language), elementFunctions: elementNames, run });
    return { ...base, judge: v.judge, errors: v.errors, ...(v.blame ? { blame: v.blame } : {}), ...(v.judge === 'undetermined' ? { entry: entry.main } : {}) };
  });

  const byRun = new Map<string, LevelRun[]>();
  for (const run of input.levelRuns) {
    if (run.purpose?.kind !== 'level') continue;
    const { runFunction, level, totalLevels: total, introduces } = run.purpose;
    byRun.set(runFunction, [...(byRun.get(runFunction) ?? []), { run, level, total, introduces }]);
  }
  const untested = structure.runFunctions.flatMap((rf) => {
    const reason = integrationUntestable(structure, rf.name);
    return reason ? [{ run_function: rf.name, reason }] : [];
  });
  const untestedNames = new Set(untested.map((u) => u.run_function));
  const run_functions = structure.runFunctions.filter((rf) => !untestedNames.has(rf.name)).map((rf) => {
    const levels = [...(byRun.get(rf.name) ?? [])].sort((a, b) => a.level - b.level);
    const total = levels[0]?.total ?? 0;
    let highest = 0;
    const successful: string[] = [];
    let failed: (typeof levels)[number] | undefined;
    for (const l of levels) {
      const ok = l.run.exitCode === 0 && levelCompleted(l.run.stdoutTail);
      if (!ok) {
        failed = l;
        break;
      }
      highest = l.level;
      for (const f of l.introduces) if (!successful.includes(f)) successful.push(f);
    }
    const blame = failed ? levelBlame(failed.run, integrationLevelFileName(rf.name, failed.level, input.summary.language), elementNames) : undefined;
    const introduced = failed ? failed.introduces.join(', ') || 'the newly introduced call' : '';
    return {
      run_function: rf.name,
      error_analysis: failed
        ? failed.run.timedOut
          ? `The integration test was stopped at level-${failed.level} (which introduces ${introduced}): ${failed.run.killed ?? `timed out after ${failed.run.durationMs} ms`}${blame ? `; it was still running in ${blame}` : ''}`
          : `The integration test failed at level-${failed.level} (which introduces ${introduced})${blame ? ` in ${blame}` : ''}: ${lastError(failed.run.stderrTail)}`
        : 'None',
      ...(blame ? { blame } : {}),
      ...(input.rebuilt?.includes(rf.name) ? { rebuilt: true } : {}),
      correct_ratio: total ? highest / total : 1,
      successful_element_functions: successful,
      failed_level: failed ? failed.level : null,
    };
  });
  for (const v of judge_result) {
    const entry = entries.get(v.function);
    if (v.judge === 'undetermined' && entry) Object.assign(v, await writerView(store, structure, v.function, entry, input.summary.language));
  }
  const keep = keptTests(structure, judge_result, entries);
  // A level rebuilt whole that still fails while the full script ran: the level's own code is at fault (issue 27.1).
  const harnessFaults = input.fullRun.exitCode === 0 ? run_functions.filter((r) => r.failed_level !== null && input.rebuilt?.includes(r.run_function)) : [];
  for (const r of harnessFaults) untested.push({ run_function: r.run_function, reason: `its level harness failed although the full script ran, so it says nothing about the script: ${r.error_analysis}` });
  const tested = run_functions.filter((r) => !harnessFaults.includes(r));
  return finishReport(store, input, { judge_result, run_functions: tested, untested, keep });
}

/** The scores, the report artifact and the verdict object. */
async function finishReport(
  store: ArtifactStore,
  input: { iteration: number; fullRun: RunDigest },
  { judge_result, run_functions, untested, keep }: Pick<ProgrammingReport, 'judge_result' | 'run_functions' | 'untested'> & { keep: KeptUnitTest[] },
): Promise<ProgrammingReport> {
  const { unitAccuracy, integrationAccuracy, executable } = programmingScores(judge_result, run_functions, input.fullRun);
  const body = { iteration: input.iteration, judge_result, correct_ratio: unitAccuracy, run_functions, ave_correct_ratio: integrationAccuracy, untested, executable, full_run: { exitCode: input.fullRun.exitCode, ...(input.fullRun.killed ? { killed: input.fullRun.killed } : {}), stderrTail: lastLines(input.fullRun.stderrTail, 40) } };
  const reportRef = await store.putJson(body, `programming-report-${input.iteration}.json`);
  return { iteration: input.iteration, judge_result, run_functions, untested, unitAccuracy, integrationAccuracy, executable, fullRunError: executable ? undefined : [input.fullRun.killed, lastError(input.fullRun.stderrTail)].filter(Boolean).join('\n'), reportRef, ...(keep.length ? { keep } : {}) };
}

/**
 * What a test's writer needs to rewrite it: its harness without the verifier library's code (the
 * script's imports, constants, the function under test and what it calls, the entry point) — a
 * fraction of the whole script a refine would otherwise carry (issue 27.2).
 */
async function writerView(store: ArtifactStore, structure: Structure, fnName: string, entry: UnitEntry, language: ScriptSummary['language']): Promise<{ harnessRef?: ArtifactRef }> {
  try {
    const h = buildUnitHarness({ structure, target: fnName, entryPoint: entry.main, language, background: [] });
    return { harnessRef: await store.put(h.source, { name: h.fileName, mediaType: 'text/plain' }) };
  } catch (err) {
    if (err instanceof BadInputError) return {};
    throw err;
  }
}

/**
 * The tests worth keeping for the next iteration (issue 27.2): those the writer had to rewrite (now
 * or earlier) that then ran their function. Asked afresh, a writer repeats its first mistake and
 * costs a refine every iteration; kept, the test is rewritten only when its function changes.
 */
function keptTests(structure: Structure, verdicts: ProgrammingReport['judge_result'], entries: Map<string, UnitEntry>): KeptUnitTest[] {
  return verdicts.flatMap((v) => {
    const entry = entries.get(v.function);
    const fn = structure.elementFunctions.find((f) => f.name === v.function);
    if (!entry || !fn || v.judge === 'undetermined' || !(v.refines || v.kept)) return [];
    return [{ function: v.function, hash: functionHash(fn.source), main: entry.main }];
  });
}
