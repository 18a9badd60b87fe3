// One pass of the Programming verifier over a script: unit-test entry points written by the LLM,
// unit harnesses + integration levels + the full script run in the sandbox at once, verdicts by code.
// The reproduction runs it once per programming iteration; the baselines once, without repair.
import type { RunDigest, ProgrammingReport, ScriptJob, ScriptSummary, TaskContext } from '../../schemas/pipeline.js';
import type { Agents } from '../reproduction/agent.js';
import { light } from '../reproduction/activities.js';
import * as P from '../reproduction/prompts.js';
import { answerOf } from './answer.js';

/** Runs sandbox jobs (all at once) and returns their digests in the same order. */
export type RunJobs = (jobs: ScriptJob[]) => Promise<RunDigest[]>;

export interface ProgrammingPass {
  report: ProgrammingReport;
  fullRun: RunDigest;
}

/**
 * `fullRun`: a run of exactly this script that already happened (a baseline's last loop run); it is
 * judged instead of running the script a second time.
 */
export async function programmingPass(
  agents: Agents,
  ctx: TaskContext,
  summary: ScriptSummary,
  stage: string,
  iteration: number,
  runAll: RunJobs,
  opts: { fullRun?: RunDigest } = {},
): Promise<ProgrammingPass> {
  const functions = summary.elementFunctions.map((f) => f.name);
  const entries = await agents.ask('unit-test-writer', stage, iteration, P.unitEntriesPrompt(ctx, summary.scriptRef, functions), { outputSchema: 'unit-entries' });
  let unitRuns: RunDigest[];
  let levelRuns: RunDigest[];
  let fullRun: RunDigest;
  if (opts.fullRun) {
    const [unitJobs, levelJobs] = await Promise.all([
      light.buildUnitJobs({ summary, answer: answerOf(entries), profile: ctx.profile }),
      light.buildLevelJobs({ summary }),
    ]);
    [unitRuns, levelRuns] = await Promise.all([runAll(unitJobs), runAll(levelJobs)]);
    fullRun = opts.fullRun;
  } else {
    // The reproduction's order of commands (replayed from committed histories): keep it.
    const [unitJobs, levelJobs, fullJob] = await Promise.all([
      light.buildUnitJobs({ summary, answer: answerOf(entries), profile: ctx.profile }),
      light.buildLevelJobs({ summary }),
      light.fullScriptJob({ summary }),
    ]);
    const [u, l, [f]] = await Promise.all([runAll(unitJobs), runAll(levelJobs), runAll([fullJob])]);
    [unitRuns, levelRuns, fullRun] = [u, l, f!];
  }
  const report = await light.judgeProgramming({ iteration, summary, unitRuns, levelRuns, fullRun });
  return { report, fullRun };
}
