// A converged escalation says the quantity stops moving at large enough knob values; the script is
// only converged if its OWN setting (what its main uses for the figure) gives the converged value too.
// The full run prints that value as the PHYSVEC_RESULT line named by the schedule's `monitor`.
import type { RunDigest } from '../../schemas/pipeline.js';
import { observedNumbers } from '../pipeline/assertions.js';
import { convergenceDelta } from '../pipeline/convergence.js';

export function checkOwnSetting(input: { monitor: string; criteria: string; converged: unknown; run: RunDigest }): { pass: boolean; own: number[] | null; reason: string } {
  const own = observedNumbers(input.run.results, input.monitor) ?? null;
  const target = Array.isArray(input.converged) ? (input.converged as number[]) : typeof input.converged === 'number' ? [input.converged] : undefined;
  if (input.run.exitCode !== 0) return { pass: false, own, reason: `the full script failed (exit ${input.run.exitCode})` };
  if (!own) return { pass: false, own, reason: `the full script printed no PHYSVEC_RESULT named "${input.monitor}"` };
  if (!target || target.length !== own.length) return { pass: false, own, reason: `no converged value of the same shape to compare "${input.monitor}" with` };
  const cmp = convergenceDelta(input.criteria, own, target);
  return { pass: cmp.converged, own, reason: `own setting ${input.monitor}=${JSON.stringify(own.length === 1 ? own[0] : own)} vs converged ${JSON.stringify(input.converged)}: ${cmp.reason}` };
}
