// The convergence test (the Scientific verifier's last check): per convergence case, a variant main
// whose knob is raised along a schedule until the monitored value stops moving (judged by code), or
// the step limit is reached.
import type { ConvergenceOutcome, TaskContext } from '../../schemas/pipeline.js';
import { jobId, type JobPurpose } from '../../schemas/job-purpose.js';
import { PARAM_ENV } from '../../schemas/script-markers.js';
import type { ReproductionProgress } from '../reproduction/progress.js';
import type { StageEnv } from '../shared/run-record.js';
import { light } from '../shared/activities.js';
import { answerOf } from '../shared/answer.js';
import { lastLines } from '../../lib/verification/suspects.js';
import { convergencePrompt, convergenceRefinePrompt } from './convergence-prompts.js';
import { patched } from '@temporalio/workflow';

type ConvergenceCase = TaskContext['convergenceCases'][number];

export async function convergenceTests(env: StageEnv, progress: ReproductionProgress): Promise<void> {
  for (const [i, c] of env.ctx.convergenceCases.entries()) {
    env.enter('convergence', i + 1);
    progress.convergence.push({ case: c.id, values: [], converged: false });
    const outcome = await convergenceCase(env, c, i + 1, progress.convergence[progress.convergence.length - 1]!.values);
    progress.convergence[progress.convergence.length - 1]!.converged = outcome.converged;
    env.record.convergence.push(outcome);
  }
}

/** Rewrites of a convergence variant that failed in its own code, by its writer, before the case is excluded. */
const CONVERGENCE_REWRITES = 2;

/**
 * One case: the writer's variant and schedule, then one run per knob value until it converges, fails
 * or the limit. A variant that fails in its own code goes back to its writer with its error and the
 * case starts over with the rewrite (issue 27.1); still failing after CONVERGENCE_REWRITES, the case
 * is excluded (`writerFault`), never counted against the script.
 */
async function convergenceCase(env: StageEnv, c: ConvergenceCase, iteration: number, shown: unknown[]): Promise<ConvergenceOutcome> {
  let prompt = convergencePrompt(env.record.script.scriptRef, c);
  for (let rewrite = 0; ; rewrite++) {
    const attempt = await convergenceAttempt(env, c, iteration, shown, prompt);
    if (!attempt.writerFault) return attempt.outcome;
    if (rewrite === CONVERGENCE_REWRITES || !patched('convergence-variant-rewrite')) {
      return rewrite ? { ...attempt.outcome, writerFault: true, reason: `excluded: the convergence variant still failed in its own code after ${rewrite} rewrite(s); ${attempt.outcome.reason}` } : attempt.outcome;
    }
    shown.length = 0;
    prompt = convergenceRefinePrompt(env.record.script.interfaceRef ?? env.record.script.scriptRef, c, { main: attempt.main, error: attempt.writerFault });
  }
}

async function convergenceAttempt(env: StageEnv, c: ConvergenceCase, iteration: number, shown: unknown[], prompt: ReturnType<typeof convergencePrompt>): Promise<{ outcome: ConvergenceOutcome; writerFault?: string; main: string }> {
  const { agents, limits, runAll, record } = env;
  const written = await agents.ask('convergence-writer', 'convergence', iteration, prompt, { outputSchema: 'convergence-variant' });
  const main = (written.parsed as { main?: string } | undefined)?.main ?? '(the answer is stored as an artifact)';
  const plan = await light.buildConvergenceJob({ summary: record.script, answer: answerOf(written), caseId: c.id });
  const outcome: ConvergenceOutcome = { case: c.id, parameter: c.parameter, criteria: c.criteria, sequence: [], converged: false, convergedAt: null, reason: plan.problem ?? 'limit reached before the value stopped moving', ...(plan.monitor ? { monitor: plan.monitor } : {}) };
  if (!plan.job) return { outcome, main, ...(plan.problem ? { writerFault: plan.problem } : {}) };
  for (const value of plan.values.slice(0, limits.convergenceMaxSteps)) {
    const purpose: JobPurpose = { kind: 'convergence', case: c.id, value };
    const [run] = await runAll([{ ...plan.job, purpose, id: jobId(purpose), env: { [PARAM_ENV]: String(value) } }]);
    const judged = await light.convergenceStep({ criteria: c.criteria, previous: outcome.sequence[outcome.sequence.length - 1]?.value, run: run!, ...(plan.lines ? { lines: plan.lines } : {}) });
    outcome.sequence.push({ param: value, value: judged.value, delta: judged.delta, exitCode: run!.exitCode });
    shown.push(judged.value);
    if (judged.writerFault) return { outcome: { ...outcome, reason: judged.writerFault }, writerFault: judged.writerFault, main };
    if (judged.converged) return { outcome: { ...outcome, converged: true, convergedAt: value, reason: judged.reason }, main };
    if (run!.exitCode !== 0) return { outcome: { ...outcome, reason: `the variant failed at ${value}:\n${lastLines(run!.stderrTail, 12)}` }, main };
  }
  return { outcome, main };
}
