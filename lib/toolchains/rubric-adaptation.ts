// Rubric leaves that name the original package or its API ("uses ITensors and ITensorMPS",
// "nsweeps", "OpSum") are rewritten for the substitute, and every change is listed so the report can
// show original → adapted. Leaves keep all their other fields.
import { getProfile, loadToolchainConfig } from './config.js';
import { specFor } from './substitution.js';
import { rewriteText } from './text-rewrite.js';
import type { AdaptedLeaf, SubstitutionPlan, ToolchainConfig } from '../../schemas/toolchain.js';

export interface AdaptedRubric<T> {
  leaves: T[];
  adapted: AdaptedLeaf[];
}

export function adaptRubricLeaves<T extends { issue: string; index?: number }>(
  leaves: readonly T[],
  sub: SubstitutionPlan,
  config: ToolchainConfig = loadToolchainConfig(),
): AdaptedRubric<T> {
  if (!sub.ok || !sub.substituted) return { leaves: [...leaves], adapted: [] };
  const spec = specFor(getProfile(sub.profile, config), sub.original);
  if (!spec) return { leaves: [...leaves], adapted: [] };
  const adapted: AdaptedLeaf[] = [];
  const out = leaves.map((leaf, i) => {
    const issue = rewriteText(leaf.issue, spec.rubricRewrites);
    if (issue === leaf.issue) return leaf;
    adapted.push({ index: leaf.index ?? i + 1, original: leaf.issue, adapted: issue });
    return { ...leaf, issue };
  });
  return { leaves: out, adapted };
}
