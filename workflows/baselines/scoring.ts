// The scoring every baseline gets (paper Sec. III.1): its final script judged ONCE and without repair
// by the same checks PhysVEC uses — one Programming-verifier pass and, for a script that runs, one
// scientific pass. For comparison only: its LLM spend is reported apart (`runMetrics.scoring`).
import type { ScriptSummary } from '../../schemas/pipeline.js';
import { programmingPass, type ProgrammingPass } from '../verifiers/programming-pass.js';
import { scientificPass, scientificVerdict, type ScientificPass } from '../verifiers/scientific-pass.js';
import type { BaselineEnv, BaselineState } from './types.js';

/** The stage whose LLM calls belong to the scoring, not to the framework under test. */
export const EVALUATION_STAGE = 'evaluation';

export interface Scoring {
  evaluation?: ProgrammingPass;
  science?: ScientificPass;
}

export async function scoreOnce(env: BaselineEnv, script: ScriptSummary, state: BaselineState, into: Scoring): Promise<{ status: 'passed' | 'failed'; message: string }> {
  const { agents, ctx, limits, runAll } = env;
  env.enter(EVALUATION_STAGE, 1);
  const evaluation = (into.evaluation = await programmingPass(agents, ctx, script, EVALUATION_STAGE, 1, runAll, { fullRun: state.lastRun }));
  if (evaluation.report.executable) into.science = await scientificPass(agents, ctx, script, EVALUATION_STAGE, 1, limits.rubricRepeats, runAll);
  const verdict = into.science ? scientificVerdict(into.science) : undefined;
  return { status: verdict?.passed ? 'passed' : 'failed', message: scoringMessage(evaluation, verdict, state) };
}

function scoringMessage(evaluation: ProgrammingPass, verdict: ReturnType<typeof scientificVerdict> | undefined, state: BaselineState): string {
  if (!evaluation.report.executable) {
    return `the final script does not run${state.attempts.length ? ` after ${state.attempts.length} iteration(s)` : ''}: ${evaluation.report.fullRunError?.split('\n').pop() ?? 'no error text'}`;
  }
  if (verdict?.passed) return 'the final script runs and passes every scientific check (scored once, comparison only)';
  return `the final script runs but fails the scientific checks (${[!verdict?.rubricOk ? 'rubric' : '', !verdict?.assertionsOk ? 'physical assertions' : ''].filter(Boolean).join(', ')})`;
}
