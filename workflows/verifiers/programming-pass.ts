// One pass of the Programming verifier over a script: unit-test entry points written by the LLM,
// unit harnesses + integration levels + the full script run in the sandbox at once, verdicts by code.
// The reproduction runs it once per programming iteration; the baselines once, without repair.
import type { RunDigest, ProgrammingReport, ScriptSummary, TaskContext } from '../../schemas/pipeline.js';
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
  opts: { fullRun?: RunDigest } = {},
): Promise<ProgrammingPass> {
  const functions = summary.elementFunctions.map((f) => f.name);
  const entries = await agents.ask('unit-test-writer', stage, iteration, unitEntriesPrompt(ctx, summary.scriptRef, functions), { outputSchema: 'unit-entries' });
  const answers = [answerOf(entries)];
  let unitRuns: RunDigest[];
  let levelRuns: RunDigest[];
  let fullRun: RunDigest;
  if (opts.fullRun) {
    const [unitJobs, levelJobs] = await Promise.all([
      light.buildUnitJobs({ summary, answer: answers[0]!, profile: ctx.profile }),
      light.buildLevelJobs({ summary }),
    ]);
    [unitRuns, levelRuns] = await Promise.all([runAll(unitJobs), runAll(levelJobs)]);
    fullRun = opts.fullRun;
  } else {
    // The reproduction's order of commands (replayed from committed histories): keep it.
    const [unitJobs, levelJobs, fullJob] = await Promise.all([
      light.buildUnitJobs({ summary, answer: answers[0]!, profile: ctx.profile }),
      light.buildLevelJobs({ summary }),
      light.fullScriptJob({ summary }),
    ]);
    const [u, l, [f]] = await Promise.all([runAll(unitJobs), runAll(levelJobs), runAll([fullJob])]);
    [unitRuns, levelRuns, fullRun] = [u, l, f!];
  }
  const refined: Record<string, number> = {};
  const judge = () => light.judgeProgramming({ iteration, summary, unitRuns, levelRuns, fullRun, entries: answers, profile: ctx.profile, refined: { ...refined } });
  let report = await judge();
  for (let round = 1; round <= UNIT_TEST_REFINES; round++) {
    const undetermined = report.judge_result.filter((j) => j.judge === 'undetermined');
    if (undetermined.length === 0) break;
    const failures = undetermined.map((j) => ({ function: j.function, main: j.entry ?? '(none written)', errors: j.errors }));
    const rewritten = await agents.ask('unit-test-writer', stage, iteration, unitRefinePrompt(ctx, summary.scriptRef, failures), { outputSchema: 'unit-entries' });
    answers.push(answerOf(rewritten));
    const only = undetermined.map((j) => j.function);
    for (const f of only) refined[f] = round;
    const rerun = await runAll(await light.buildUnitJobs({ summary, answer: answerOf(rewritten), profile: ctx.profile, only }));
    // A rewritten test's run replaces its earlier run; a test left unwritten keeps its earlier failure.
    unitRuns = [...unitRuns.filter((r) => !rerun.some((x) => x.id === r.id)), ...rerun];
    report = await judge();
  }
  return { report, fullRun };
}
