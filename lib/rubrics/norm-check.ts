// NormCheck as in the reference implementation: effective leaf weights must add up to 1 within 1e-4,
// otherwise grading does not proceed (a grade would not be on the 0..1 scale).
import type { NormCheckResult } from '../../schemas/task.js';

export const NORM_CHECK_TOLERANCE = 1e-4;

export function normCheck(leaves: readonly { effectiveWeight: number }[], tolerance = NORM_CHECK_TOLERANCE): NormCheckResult {
  const total = leaves.reduce((sum, leaf) => sum + leaf.effectiveWeight, 0);
  return { ok: Math.abs(total - 1) <= tolerance, total };
}
