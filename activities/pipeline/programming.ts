// Programming verifier steps that need no model: unit harnesses and integration levels as sandbox
// jobs, the full-script job, and the verdicts (by exit code, marker and traceback — not by an LLM).
import type { ArtifactStore } from '../artifacts/store.js';
import type { ProgrammingReport, RunDigest, ScriptJob, ScriptSummary } from '../../schemas/pipeline.js';
import { buildIntegrationLevels, buildUnitHarness, unitHarnessFileName } from '../../runners/harness/index.js';
import { agentOutputSchemas } from '../../schemas/agent-outputs.js';
import { readAnswer, type AnswerRef } from './answers.js';
import { extensionOf, loadStructure } from './script-summary.js';
import { selectBackground } from '../../lib/verifier-library/select.js';
import { BadInputError } from '../../lib/errors.js';

/** Background functions of the verifier library for a target of this category (none when the profile has no library). */
export function backgroundFor(profile: string, category: string): { functions: { category: string; source: string }[]; preamble: string; names: string[] } {
  try {
    const sel = selectBackground(profile, category);
    return { functions: sel.functions.map((f) => ({ category: f.category, source: f.source })), preamble: sel.preamble, names: sel.functions.map((f) => f.name) };
  } catch {
    return { functions: [], preamble: '', names: [] };
  }
}

export async function buildUnitJobs(
  store: ArtifactStore,
  input: { summary: ScriptSummary; answer: AnswerRef; profile: string },
): Promise<ScriptJob[]> {
  const { structure } = await loadStructure(store, input.summary);
  const entries = (await readAnswer(store, input.answer, agentOutputSchemas['unit-entries'], 'unit-test entry points')).entries;
  const jobs: ScriptJob[] = [];
  for (const fn of structure.elementFunctions) {
    const entry = entries.find((e) => e.function === fn.name);
    if (!entry) continue; // reported as undetermined by judgeProgramming
    const bg = backgroundFor(input.profile, fn.category);
    const harness = buildUnitHarness({
      structure, target: fn.name, entryPoint: entry.main, language: input.summary.language,
      background: bg.functions as Parameters<typeof buildUnitHarness>[0]['background'],
      extraPreamble: bg.preamble || undefined,
    });
    jobs.push({ id: `unit:${fn.name}`, file: harness.fileName, ref: await store.put(harness.source, { name: harness.fileName }) });
  }
  return jobs;
}

export async function buildLevelJobs(store: ArtifactStore, input: { summary: ScriptSummary }): Promise<ScriptJob[]> {
  const { structure } = await loadStructure(store, input.summary);
  const jobs: ScriptJob[] = [];
  for (const run of structure.runFunctions) {
    if (integrationUntestable(structure, run.name)) continue;
    for (const level of buildIntegrationLevels(structure, run.name)) {
      jobs.push({ id: `level:${run.name}:${level.level}:${level.totalLevels}:${level.introduces.join('+')}`, file: level.fileName, ref: await store.put(level.source, { name: level.fileName }) });
    }
  }
  return jobs;
}

export async function fullScriptJob(_store: ArtifactStore, input: { summary: ScriptSummary }): Promise<ScriptJob> {
  return { id: 'full', file: `main.${extensionOf(input.summary.language)}`, ref: input.summary.scriptRef };
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
  const frames = [...stderr.matchAll(/File "[^"]*", line \d+, in (\w+)/g)].map((m) => m[1]!);
  const ours = frames.filter((f) => f !== '<module>' && (!among || among.has(f)));
  return ours[ours.length - 1];
}

/** The last lines of a traceback: the exception and where it was raised. */
export function lastError(stderr: string): string {
  const lines = stderr.trim().split('\n');
  return lines.slice(-Math.min(lines.length, 6)).join('\n');
}

export async function judgeProgramming(
  store: ArtifactStore,
  input: { iteration: number; summary: ScriptSummary; unitRuns: RunDigest[]; levelRuns: RunDigest[]; fullRun: RunDigest },
): Promise<ProgrammingReport> {
  const { structure } = await loadStructure(store, input.summary);
  const judge_result = structure.elementFunctions.map((fn) => {
    const file = unitHarnessFileName(fn.name, input.summary.language);
    const run = input.unitRuns.find((r) => r.id === `unit:${fn.name}`);
    if (!run) return { target_file_name: file, function: fn.name, judge: 'undetermined' as const, errors: 'no entry point was written for this function' };
    if (run.exitCode === 0 && !run.timedOut) return { target_file_name: file, function: fn.name, judge: 'correct' as const, errors: 'None' };
    const where = failingFunction(run.stderrTail);
    const elementNames = new Set(structure.elementFunctions.map((f) => f.name));
    // A crash inside the function under test (or a library it calls) condemns it; a crash in the entry point or a background function is the harness's fault.
    const inTarget = where === fn.name || (where !== undefined && !elementNames.has(where) && where !== 'main' && !where.includes('verifier'));
    const judge = run.timedOut ? ('undetermined' as const) : inTarget ? ('wrong' as const) : ('undetermined' as const);
    return { target_file_name: file, function: fn.name, judge, errors: run.timedOut ? `timed out after ${run.durationMs} ms` : `${where ? `failed in ${where}: ` : ''}${lastError(run.stderrTail)}` };
  });

  const byRun = new Map<string, RunDigest[]>();
  for (const r of input.levelRuns) {
    const runName = r.id.split(':')[1]!;
    byRun.set(runName, [...(byRun.get(runName) ?? []), r]);
  }
  const untested = structure.runFunctions.flatMap((rf) => {
    const reason = integrationUntestable(structure, rf.name);
    return reason ? [{ run_function: rf.name, reason }] : [];
  });
  const untestedNames = new Set(untested.map((u) => u.run_function));
  const run_functions = structure.runFunctions.filter((rf) => !untestedNames.has(rf.name)).map((rf) => {
    const levels = (byRun.get(rf.name) ?? []).map((r) => {
      const [, , level, total, introduces] = r.id.split(':');
      return { run: r, level: Number(level), total: Number(total), introduces: (introduces ?? '').split('+').filter(Boolean) };
    }).sort((a, b) => a.level - b.level);
    const total = levels[0]?.total ?? 0;
    let highest = 0;
    const successful: string[] = [];
    let failed: (typeof levels)[number] | undefined;
    for (const l of levels) {
      const ok = l.run.exitCode === 0 && /PHYSVEC_LEVEL_OK/.test(l.run.stdoutTail);
      if (!ok) {
        failed = l;
        break;
      }
      highest = l.level;
      for (const f of l.introduces) if (!successful.includes(f)) successful.push(f);
    }
    return {
      run_function: rf.name,
      error_analysis: failed
        ? `The integration test failed at level-${failed.level} because ${failed.introduces.join(', ') || 'the newly introduced call'}, newly introduced at this level, failed: ${lastError(failed.run.stderrTail)}`
        : 'None',
      correct_ratio: total ? highest / total : 1,
      successful_element_functions: successful,
      failed_level: failed ? failed.level : null,
    };
  });
  const unitAccuracy = judge_result.length ? judge_result.filter((j) => j.judge === 'correct').length / judge_result.length : 1;
  const integrationAccuracy = run_functions.length ? run_functions.reduce((s, r) => s + r.correct_ratio, 0) / run_functions.length : 1;
  const executable = input.fullRun.exitCode === 0 && !input.fullRun.timedOut;
  const body = { iteration: input.iteration, judge_result, correct_ratio: unitAccuracy, run_functions, ave_correct_ratio: integrationAccuracy, untested, executable, full_run: { exitCode: input.fullRun.exitCode, stderrTail: input.fullRun.stderrTail.slice(-2000) } };
  const reportRef = await store.putJson(body, `programming-report-${input.iteration}.json`);
  return { iteration: input.iteration, judge_result, run_functions, untested, unitAccuracy, integrationAccuracy, executable, fullRunError: executable ? undefined : lastError(input.fullRun.stderrTail), reportRef };
}
