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
import { convergencePrompt } from './convergence-prompts.js';

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

/** One case: the writer's variant and schedule, then one run per knob value until it converges, fails or the limit. */
async function convergenceCase(env: StageEnv, c: ConvergenceCase, iteration: number, shown: unknown[]): Promise<ConvergenceOutcome> {
  const { agents, limits, runAll, record } = env;
  const written = await agents.ask('convergence-writer', 'convergence', iteration, convergencePrompt(record.script.scriptRef, c), { outputSchema: 'convergence-variant' });
  const plan = await light.buildConvergenceJob({ summary: record.script, answer: answerOf(written), caseId: c.id });
  const outcome: ConvergenceOutcome = { case: c.id, parameter: c.parameter, criteria: c.criteria, sequence: [], converged: false, convergedAt: null, reason: plan.problem ?? 'limit reached before the value stopped moving', ...(plan.monitor ? { monitor: plan.monitor } : {}) };
  if (!plan.job) return outcome;
  for (const value of plan.values.slice(0, limits.convergenceMaxSteps)) {
    const purpose: JobPurpose = { kind: 'convergence', case: c.id, value };
    const [run] = await runAll([{ ...plan.job, purpose, id: jobId(purpose), env: { [PARAM_ENV]: String(value) } }]);
    const judged = await light.convergenceStep({ criteria: c.criteria, previous: outcome.sequence[outcome.sequence.length - 1]?.value, run: run! });
    outcome.sequence.push({ param: value, value: judged.value, delta: judged.delta, exitCode: run!.exitCode });
    shown.push(judged.value);
    if (judged.converged) return { ...outcome, converged: true, convergedAt: value, reason: judged.reason };
    if (run!.exitCode !== 0) return { ...outcome, reason: `the variant failed at ${value}:\n${lastLines(run!.stderrTail, 12)}` };
  }
  return outcome;
}
