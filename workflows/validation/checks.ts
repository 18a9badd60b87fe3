// The scientific checks of a validation, as workflow steps over the pipeline's activities: assertion
// variants (run in parallel, compared by code), convergence escalation (one knob value after the
// other until the criterion holds or the schedule ends) and the own-setting check.
import type { AssertionVerdict, RunDigest, ScriptJob, ScriptSummary } from '../../schemas/pipeline.js';
import type { ValidationConvergenceCase, ValidationMaterial } from '../../schemas/validation.js';
import { jobId, type JobPurpose } from '../../schemas/job-purpose.js';
import { PARAM_ENV } from '../../schemas/script-markers.js';
import { light, sim } from './activities.js';

export type RunOne = (job: ScriptJob) => Promise<RunDigest>;

export function runner(language: ScriptSummary['language'], timeoutMs: number): RunOne {
  return (job) => sim.runJob({ job, language, timeoutMs });
}

/** The assertion variants of `summary` for the given cases (their mains from the suite), judged by code. */
export async function runAssertions(
  run: RunOne,
  summary: ScriptSummary,
  m: Pick<ValidationMaterial, 'cases' | 'variants' | 'missing'>,
  only?: string,
): Promise<AssertionVerdict[]> {
  const cases = m.cases.filter((c) => only === undefined || c.id === only);
  const variants = m.variants.filter((v) => cases.some((c) => c.id === v.case));
  const built = await light.buildVariantJobs({ summary, variants });
  const runs = await Promise.all(built.jobs.map(run));
  const problems = [...built.problems, ...m.missing.filter((p) => cases.some((c) => c.id === p.case))];
  const checked = await light.checkAssertions({ cases, runs, problems });
  // The suite's truths are numeric by design; a truth code cannot read stays undetermined (not passed).
  return checked.verdicts;
}

export interface Escalation {
  converged: boolean;
  at: number | null;
  value: unknown;
  reason: string;
}

/** Raise the case's knob along its schedule until two successive values agree within the criterion. */
export async function escalate(run: RunOne, summary: ScriptSummary, c: ValidationConvergenceCase): Promise<Escalation> {
  if (!c.variant) return { converged: false, at: null, value: null, reason: c.problem ?? 'no convergence variant' };
  const { monitor: _monitor, ...schedule } = c.variant.schedule;
  const plan = await light.buildConvergenceJob({ summary, caseId: c.id, variant: { main: c.variant.main, schedule } });
  if (!plan.job) return { converged: false, at: null, value: null, reason: plan.problem ?? 'the convergence variant could not be built' };
  let previous: unknown;
  const trail: string[] = [];
  for (const value of plan.values) {
    const purpose: JobPurpose = { kind: 'convergence', case: c.id, value };
    const r = await run({ ...plan.job, purpose, id: jobId(purpose), env: { [PARAM_ENV]: String(value) } });
    if (r.exitCode !== 0) return { converged: false, at: null, value: previous ?? null, reason: `the variant failed at ${value} (exit ${r.exitCode}${r.timedOut ? ', timed out' : ''}): ${r.stderrTail.slice(-200)}` };
    const step = await light.convergenceStep({ criteria: c.criteria, previous, run: r });
    trail.push(`${value}: ${JSON.stringify(step.value)}`);
    if (step.converged) return { converged: true, at: value, value: step.value, reason: `${step.reason} (${trail.join(', ')})` };
    previous = step.value;
  }
  return { converged: false, at: null, value: previous ?? null, reason: `not converged by the end of the schedule (${trail.join(', ')})` };
}
