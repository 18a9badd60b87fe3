// Rubric scoring by code: grade = Σ effective weight · judge per repeat; failed = issues judged 0 in
// every repeat (with their support), as in QMP-Bench's scorecard.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { RubricOutcome } from '../../schemas/pipeline.js';
import { agentOutputSchemas } from '../../schemas/agent-outputs.js';
import { gradeRubric, type Judge } from '../../lib/rubrics/grade.js';
import { readAnswer, type AnswerRef } from './answers.js';

interface Leaf { index: number; issue: string; effectiveWeight: number }

export async function scoreRubric(store: ArtifactStore, input: { leavesRef: ArtifactRef; answers: AnswerRef[] }): Promise<RubricOutcome> {
  const leaves = await store.getJson<Leaf[]>(input.leavesRef);
  const runs: { index: number; judge: 0 | 1; support: string }[][] = [];
  for (const a of input.answers) runs.push((await readAnswer(store, a, agentOutputSchemas['rubric-judges'], 'rubric judges')).judges);
  const grades = runs.map((judges) => {
    const vector: Judge[] = leaves.map((l) => (judges.find((j) => j.index === l.index)?.judge ?? 0) as Judge);
    return gradeRubric(leaves, vector);
  });
  const failed = leaves
    .filter((l) => runs.every((judges) => (judges.find((j) => j.index === l.index)?.judge ?? 0) === 0))
    .map((l) => ({ index: l.index, issue: l.issue, support: runs.map((judges) => judges.find((j) => j.index === l.index)?.support ?? 'not judged').join(' | ') }));
  const mean = grades.reduce((s, g) => s + g, 0) / (grades.length || 1);
  const std = Math.sqrt(grades.reduce((s, g) => s + (g - mean) ** 2, 0) / (grades.length || 1));
  const reportRef = await store.putJson({ Scorecard: { rubrics_grade_mean: mean, rubrics_grade_std: std, error_issues: failed }, runs }, 'rubric-report.json');
  return { available: true, grades, gradeMean: mean, gradeStd: std, failed, reportRef };
}
