// The full rubric scorecard of one scientific round for the evidence report: every leaf with its
// weight, each repeat's judge verdict and support, not only the failed leaves. Built from the two
// artifacts the round already stored (the leaves given to the grader, the graded repeats).
import { z } from 'zod';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { RubricOutcome } from '../../schemas/pipeline.js';
import { RubricLeafSummary } from '../../schemas/rubric.js';

/** The leaves as prepareTask gives them to the grader (rubric-leaves.json): a subset of RubricLeafSummary. */
const GradedLeaf = RubricLeafSummary.pick({ index: true, issue: true, effectiveWeight: true });

const GradedRepeats = z.object({ runs: z.array(z.array(z.object({ index: z.number(), judge: z.number(), support: z.string() }))) });

export interface ScorecardLeaf {
  index: number;
  issue: string;
  weight: number;
  /** One entry per grading repeat: 1 met, 0 not met, null not judged in that repeat. */
  judges: (number | null)[];
  supports: string[];
  /** `met` in every repeat, `failed` in every repeat (what the score counts as failed), else `split`. */
  verdict: 'met' | 'failed' | 'split';
}

export async function rubricScorecard(store: ArtifactStore, leavesRef: ArtifactRef | undefined, rubric: RubricOutcome): Promise<ScorecardLeaf[] | null> {
  if (!rubric.available || !leavesRef || !rubric.reportRef) return null;
  const leavesDoc = GradedLeaf.array().safeParse(await store.getJson(leavesRef));
  const repeatsDoc = GradedRepeats.safeParse(await store.getJson(rubric.reportRef));
  // An artifact of another shape (an older run) leaves the report with the failed leaves only.
  if (!leavesDoc.success || !repeatsDoc.success) return null;
  const leaves = leavesDoc.data;
  const { runs } = repeatsDoc.data;
  return leaves.map((l) => {
    const judged = runs.map((judges) => judges.find((j) => j.index === l.index));
    const judges = judged.map((j) => (j ? j.judge : null));
    // Not judged counts as 0, as the grade does (activities/pipeline/rubric.ts).
    const verdict = judges.every((j) => j === 1) ? 'met' : judges.every((j) => !j) ? 'failed' : 'split';
    return { index: l.index, issue: l.issue, weight: l.effectiveWeight, judges, supports: judged.map((j) => j?.support ?? 'not judged'), verdict };
  });
}
