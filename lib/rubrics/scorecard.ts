// The scorecard the grader LLM fills in, in the reference implementation's shape.
import type { RubricTree, Scorecard } from '../../schemas/rubric.js';
import { flattenRubric } from './flatten.js';
import { normCheck } from './norm-check.js';

/** `rubricsFile` is the rubric's file name as the task names it (`rubrics_name`). */
export function buildScorecard(rubricsFile: string, tree: RubricTree): Scorecard {
  const leaves = flattenRubric(tree);
  const check = normCheck(leaves);
  return {
    rubrics_file: rubricsFile,
    guide_caption: tree.guide_caption,
    task_confirm: 'TBD',
    issue_list: leaves.map((leaf) => ({
      issue_index: leaf.index,
      issue: leaf.issue,
      weight: leaf.effectiveWeight,
      children: { judge: 'TBD', support: 'TBD' },
    })),
    NormCheck: check.ok,
    total_weight: check.total,
  };
}
