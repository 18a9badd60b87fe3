// The rubric tree as the grader sees it: the leaves in document order, each with the product of the
// weights on its path (the reference implementation replaces a leaf's weight by this product).
import type { RubricLeaf, RubricLeafSummary, RubricNode, RubricTree } from '../../schemas/rubric.js';

export function isRubricLeaf(node: RubricNode): node is RubricLeaf {
  return !Array.isArray(node.children);
}

export function flattenRubric(tree: RubricTree): RubricLeafSummary[] {
  const leaves: RubricLeafSummary[] = [];
  const walk = (nodes: readonly RubricNode[], path: string[], category: string, factor: number): void => {
    for (const node of nodes) {
      if (isRubricLeaf(node)) {
        leaves.push({
          index: leaves.length + 1,
          path,
          category,
          issue: node.issue,
          weight: node.weight,
          effectiveWeight: factor * node.weight,
        });
      } else {
        walk(node.children, [...path, node.id], path.length === 0 ? node.statement : category, factor * node.weight);
      }
    }
  };
  // A leaf directly under the root has no category; it is grouped under the empty string.
  walk(tree.children, [], '', tree.weight);
  return leaves;
}
