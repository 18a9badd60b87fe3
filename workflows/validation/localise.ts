// Differential localisation of a scientific fault: every function of the script that differs from the
// reference is, one at a time, replaced by the reference's definition, and one failing case is rerun on
// that script. The function whose replacement makes the case pass is named.
import type { ScriptSummary } from '../../schemas/pipeline.js';
import type { ValidationConvergenceCase, ValidationMaterial, ValidationSummary } from '../../schemas/validation.js';
import { light } from './activities.js';
import { escalate, runAssertions, type RunOne } from './checks.js';

export type FailingCase =
  | { kind: 'assertion'; id: string }
  | { kind: 'escalation'; id: string; convergence: ValidationConvergenceCase }
  | { kind: 'own-setting'; id: string; convergence: ValidationConvergenceCase; converged: unknown };

async function recheck(run: RunOne, m: ValidationMaterial, summary: ScriptSummary, failing: FailingCase): Promise<{ passes: boolean; reason: string }> {
  if (failing.kind === 'assertion') {
    const [v] = await runAssertions(run, summary, m, failing.id);
    return { passes: v?.judge === 'correct', reason: v ? `${v.judge}: ${v.reason.slice(0, 200)}` : 'no verdict' };
  }
  if (failing.kind === 'escalation') {
    const e = await escalate(run, summary, failing.convergence);
    return { passes: e.converged, reason: e.reason.slice(0, 200) };
  }
  // Own setting: the candidate's full run against the converged value of the script under test.
  const full = await run(await light.fullScriptJob({ summary }));
  const own = await light.checkOwnSetting({ monitor: failing.convergence.variant!.schedule.monitor!, criteria: failing.convergence.criteria, converged: failing.converged, run: full });
  return { passes: own.pass, reason: own.reason.slice(0, 200) };
}

export async function localise(
  run: RunOne,
  m: ValidationMaterial,
  failing: FailingCase,
): Promise<{ faultyFunction?: string; localisation: NonNullable<ValidationSummary['localisation']> }> {
  const { candidates, unchanged, skipped } = await light.referenceReplacements({ script: m.script, reference: m.reference });
  const tried = await Promise.all(candidates.map(async (c) => ({ function: c.function, ...(await recheck(run, m, c.summary, failing)) })));
  const named = tried.find((t) => t.passes)?.function;
  const note = [
    `${candidates.length} function(s) differ from the reference and were tried; ${unchanged.length} identical ones were not rerun`,
    ...skipped.map((s) => `${s.function}: ${s.reason}`),
    named ? `named ${named}` : 'not localised: no single replacement makes the case pass',
  ].join('; ');
  return { ...(named ? { faultyFunction: named } : {}), localisation: { case: failing.id, tried, note } };
}
