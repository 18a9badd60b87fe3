// A QMP-Bench rubric tree, modelled on Paper_dataset/Rubrics/<topic>/*.json as published:
//   root     {source, guide_caption, task, weight, children: node[]}
//   category {id, statement, weight, children: node[]}
//   leaf     {issue, weight, children: {judge, support}}
// A node is a leaf exactly when its `children` is an object rather than an array; weights are JSON
// numbers in every published file. Parse with lib/rubrics/parse.ts, which turns zod's union errors
// into one message per field of the branch the node was meant to be.
import { z } from 'zod';

const weight = z.number().finite().nonnegative();

/** `TBD` until graded; 0 or 1 after an LLM judged the issue. */
export const RubricJudge = z.union([z.literal('TBD'), z.literal(0), z.literal(1)]);
export type RubricJudge = z.infer<typeof RubricJudge>;

export const RubricLeaf = z
  .object({
    issue: z.string().min(1, 'must be a non-empty string'),
    weight,
    children: z.object({ judge: RubricJudge, support: z.string() }).loose(),
  })
  .loose();
export type RubricLeaf = z.infer<typeof RubricLeaf>;

export interface RubricCategory {
  id: string;
  statement: string;
  weight: number;
  children: RubricNode[];
  [extra: string]: unknown;
}
export type RubricNode = RubricLeaf | RubricCategory;

export const RubricCategory: z.ZodType<RubricCategory> = z
  .object({
    id: z.string().min(1, 'must be a non-empty string'),
    statement: z.string(),
    weight,
    get children(): z.ZodArray<z.ZodType<RubricNode>> {
      return z.array(RubricNode);
    },
  })
  .loose();

/** Leaf first: lib/rubrics/parse.ts relies on this order to pick the branch a node was meant to be. */
export const RubricNode: z.ZodType<RubricNode> = z.union([RubricLeaf, RubricCategory]);

export const RubricTree = z
  .object({
    source: z.string(),
    guide_caption: z.string(),
    task: z.string(),
    weight,
    children: z.array(RubricNode),
  })
  .loose();
export type RubricTree = z.infer<typeof RubricTree>;

/** One leaf after flattening: its 1-based index, the category ids above it and its weights. */
export const RubricLeafSummary = z.object({
  index: z.number().int().positive(),
  /** Ids of the category nodes from the top down to the leaf's parent. */
  path: z.array(z.string()),
  /** Statement of the top-level category (e.g. "Code correctness"), for grouping in reports. */
  category: z.string(),
  issue: z.string(),
  /** The leaf's own weight, as written in the file. */
  weight: z.number(),
  /** Product of the weights from the root to the leaf; these sum to 1 in a well-formed tree. */
  effectiveWeight: z.number(),
});
export type RubricLeafSummary = z.infer<typeof RubricLeafSummary>;
