// One pass of the Programming verifier over a script: unit-test entry points written by the LLM,
// unit harnesses + integration levels + the full script run in the sandbox at once, verdicts by code.
// The reproduction runs it once per programming iteration; the baselines once, without repair.
import type { KeptUnitTest, RunDigest, ProgrammingReport, ScriptSummary, TaskContext } from '../../schemas/pipeline.js';
import { patched } from '@temporalio/workflow';
import type { VerifierStage } from '../../schemas/agent-roles.js';
import type { RunJobs } from '../shared/run-jobs.js';
import type { Agents } from '../shared/agents.js';
import { light } from '../shared/activities.js';
import { answerOf } from '../shared/answer.js';
import { unitEntriesPrompt, unitRefinePrompt } from './programming-prompts.js';

export interface ProgrammingPass {
  report: ProgrammingReport;
  fullRun: RunDigest;
}

/** Rewrites of an undetermined unit test by its writer, within one iteration, before it is reported as undetermined. */
export const UNIT_TEST_REFINES = 2;

/**
 * `fullRun`: a run of exactly this script that already happened (a baseline's last loop run); it is
 * judged instead of running the script a second time.
 *
 * A unit test that fails inside its own harness (entry point or background function) is
 * undetermined: its error goes back to the test writer, which rewrites that test, and it is rerun
 * within the same pass — up to UNIT_TEST_REFINES times. The script is never repaired for it.
 */
export async function programmingPass(
  agents: Agents,
  ctx: TaskContext,
  summary: ScriptSummary,
  stage: VerifierStage,
  iteration: number,
  runAll: RunJobs,
  opts: { fullRun?: RunDigest; kept?: KeptUnitTest[] } = {},
): Promise<ProgrammingPass> {
  const reuse = reusableTests(summary, opts.kept);
  const functions = summary.elementFunctions.map((f) => f.name).filter((f) => !reuse.some((k) => k.function === f));
  const answers: ReturnType<typeof answerOf>[] = [];
  if (functions.length || !reuse.length) answers.push(answerOf(await agents.ask('unit-test-writer', stage, iteration, unitEntriesPrompt(ctx, summary.scriptRef, functions), { outputSchema: 'unit-entries' })));
  // Kept tests come after the writer's answer: its entry for a kept function (if it wrote one anyway) is not used.
  if (reuse.length) answers.push({ parsed: { entries: reuse.map((k) => ({ function: k.function, main: k.main })) } });
  let unitRuns: RunDigest[];
  let levelRuns: RunDigest[];
  let fullRun: RunDigest;
  if (opts.fullRun) {
    const [unitJobs, levelJobs] = await Promise.all([
      light.buildUnitJobs({ summary, answers, profile: ctx.profile }),
      light.buildLevelJobs({ summary }),
    ]);
    [unitRuns, levelRuns] = await Promise.all([runAll(unitJobs), runAll(levelJobs)]);
    fullRun = opts.fullRun;
  } else {
    // The reproduction's order of commands (replayed from committed histories): keep it.
    const [unitJobs, levelJobs, fullJob] = await Promise.all([
      light.buildUnitJobs({ summary, answers, profile: ctx.profile }),
      light.buildLevelJobs({ summary }),
      light.fullScriptJob({ summary }),
    ]);
    const [u, l, [f]] = await Promise.all([runAll(unitJobs), runAll(levelJobs), runAll([fullJob])]);
    [unitRuns, levelRuns, fullRun] = [u, l, f!];
  }
  const refined: Record<string, number> = {};
  const kept = reuse.map((k) => k.function);
  let rebuilt: string[] = [];
  const judge = () => light.judgeProgramming({ iteration, summary, unitRuns, levelRuns, fullRun, entries: answers, profile: ctx.profile, refined: { ...refined }, ...(kept.length ? { kept } : {}), ...(rebuilt.length ? { rebuilt } : {}) });
  let report = await judge();
  for (let round = 1; round <= UNIT_TEST_REFINES; round++) {
    const undetermined = report.judge_result.filter((j) => j.judge === 'undetermined');
    if (undetermined.length === 0) break;
    const failures = undetermined.map((j) => ({ function: j.function, main: j.entry ?? '(none written)', errors: j.errors, ...(j.harnessRef ? { harnessRef: j.harnessRef } : {}) }));
    const rewritten = await agents.ask('unit-test-writer', stage, iteration, unitRefinePrompt(ctx, summary.scriptRef, failures), { outputSchema: 'unit-entries' });
    answers.push(answerOf(rewritten));
    const only = undetermined.map((j) => j.function);
    for (const f of only) refined[f] = round;
    const rerun = await runAll(await light.buildUnitJobs({ summary, answer: answerOf(rewritten), profile: ctx.profile, only }));
    // A rewritten test's run replaces its earlier run; a test left unwritten keeps its earlier failure.
    unitRuns = [...unitRuns.filter((r) => !rerun.some((x) => x.id === r.id)), ...rerun];
    report = await judge();
  }
  // A level that fails although the full script ran failed in the level's own code (its slice of
  // main): its writer — the level builder — rebuilds it keeping all of main, and it is rerun (issue 27.1).
  const suspect = fullRun.exitCode === 0 ? report.run_functions.filter((r) => r.failed_level !== null).map((r) => r.run_function) : [];
  if (suspect.length && patched('integration-level-rebuild')) {
    const rerun = await runAll(await light.buildLevelJobs({ summary, unsliced: suspect }));
    levelRuns = [...levelRuns.filter((r) => !rerun.some((x) => x.id === r.id)), ...rerun];
    rebuilt = suspect;
    report = await judge();
  }
  return { report, fullRun };
}

/**
 * Tests rewritten in an earlier iteration whose function is unchanged (same source hash): reused
 * instead of asking the writer again (issue 27.2). Histories recorded before have no kept tests.
 */
function reusableTests(summary: ScriptSummary, kept: KeptUnitTest[] | undefined): KeptUnitTest[] {
  if (!kept?.length || !patched('unit-test-keep')) return [];
  return kept.filter((k) => summary.elementFunctions.some((f) => f.name === k.function && f.hash !== undefined && f.hash === k.hash));
}
