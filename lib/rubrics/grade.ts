// The rubric grade. The reference computes Σ weight·judge over its scorecard, whose leaf weights have
// already been replaced by the path products; so the grade uses effective weights and a full pass is 1
// (for a tree that passes NormCheck).
import type { RubricLeafSummary } from '../../schemas/rubric.js';

export type Judge = 0 | 1;

export function gradeRubric(leaves: readonly Pick<RubricLeafSummary, 'effectiveWeight'>[], judges: readonly Judge[]): number {
  if (judges.length !== leaves.length) {
    throw new RangeError(`gradeRubric: ${judges.length} judges for ${leaves.length} rubric leaves; give one 0/1 judge per leaf`);
  }
  return leaves.reduce((sum, leaf, i) => {
    const judge = judges[i];
    if (judge !== 0 && judge !== 1) throw new RangeError(`gradeRubric: judge ${i + 1} is ${String(judge)}, expected 0 or 1`);
    return sum + leaf.effectiveWeight * judge;
  }, 0);
}
