// One pass of the Scientific verifier's checks over a script: the rubric graded N times (temperature
// 0.15·k) with a consistency pass, grade by code; and the physical-assertion variants (main replaced,
// element functions verbatim) run in the sandbox and compared with the truths by code. The
// reproduction runs it per scientific iteration; the baselines once, without repair.
import type { AssertionVerdict, RubricOutcome, ScriptSummary, TaskContext } from '../../schemas/pipeline.js';
import type { Agents } from '../shared/agents.js';
import { light } from '../shared/activities.js';
import { answerOf } from '../shared/answer.js';
import { patched } from '@temporalio/workflow';
import { qualitativePrompt, rubricConsistencyPrompt, rubricPrompt, variantsPrompt, variantsRefinePrompt } from './scientific-prompts.js';
import { localiseCases, type CaseLocalisation } from '../../lib/verification/suspects.js';
import type { RunJobs } from '../shared/run-jobs.js';
import type { VerifierStage } from '../../schemas/agent-roles.js';

export interface ScientificPass {
  rubric: RubricOutcome;
  assertions: AssertionVerdict[];
  /** Per case: the variant's main, what it printed, the element functions it reaches (for a repair that localises). */
  localisation: CaseLocalisation[];
}

/** Lines of a variant's output a repair prompt shows. */
const OUTPUT_LINES = 30;

/** Rewrites of a variant whose own code failed, by its writer within one pass, before the case is excluded. */
export const VARIANT_REWRITES = 2;

export async function scientificPass(
  agents: Agents,
  ctx: TaskContext,
  summary: ScriptSummary,
  stage: VerifierStage,
  iteration: number,
  rubricRepeats: number,
  runAll: RunJobs,
): Promise<ScientificPass> {
  const cases = [...ctx.limitingCases, ...ctx.scientificResults];
  // Rubric and assertions start together; the order they issue commands in is part of the replayed history.
  const rubricP = (async (): Promise<RubricOutcome> => {
    if (!ctx.rubric.available || !ctx.rubric.leavesRef) {
      return { available: false, grades: [], gradeMean: null, gradeStd: null, failed: [], reason: ctx.rubric.reason ?? 'no rubric published for this task' };
    }
    const answers: ReturnType<typeof answerOf>[] = [];
    for (let k = 1; k <= rubricRepeats; k++) {
      const graded = await agents.ask('rubric-grader', stage, iteration, rubricPrompt(summary.scriptRef, ctx.rubric.leavesRef), { outputSchema: 'rubric-judges', temperature: 0.15 * k });
      const checked = await agents.ask('rubric-consistency', stage, iteration, rubricConsistencyPrompt(ctx.rubric.leavesRef, JSON.stringify(graded.parsed ?? {}).slice(0, 10000)), { outputSchema: 'rubric-judges', temperature: 0 });
      answers.push(answerOf(checked));
    }
    return light.scoreRubric({ leavesRef: ctx.rubric.leavesRef, answers });
  })();
  const assertionsP = (async (): Promise<{ assertions: AssertionVerdict[]; localisation: CaseLocalisation[] }> => {
    if (cases.length === 0) return { assertions: [], localisation: [] };
    const written = await agents.ask('assertion-writer', stage, iteration, variantsPrompt(summary.scriptRef, cases.map((c) => ({ id: c.id, content: c.content })), ctx.language), { outputSchema: 'variant-mains' });
    const built = await light.buildVariantJobs({ summary, answer: answerOf(written) });
    let runs = await runAll(built.jobs);
    let checked = await light.checkAssertions({ cases, runs, problems: built.problems, lines: built.lines });
    // A variant whose own code failed goes back to its writer with its error and is rerun, within this
    // pass; the script is never repaired for it. (Histories recorded before have no such verdicts.)
    let rewrites = 0;
    for (let round = 1; round <= VARIANT_REWRITES; round++) {
      const faulty = checked.verdicts.filter((v) => v.variantFault);
      if (faulty.length === 0 || !patched('assertion-variant-rewrite')) break;
      const failures = faulty.map((v) => ({ case: v.case, content: v.content, main: built.reach.find((r) => r.case === v.case)?.main ?? '(none written)', errors: v.reason }));
      const rewritten = await agents.ask('assertion-writer', stage, iteration, variantsRefinePrompt(summary.interfaceRef ?? summary.scriptRef, failures, ctx.language), { outputSchema: 'variant-mains' });
      const only = faulty.map((v) => v.case);
      const again = await light.buildVariantJobs({ summary, answer: answerOf(rewritten), only });
      const rerun = await runAll(again.jobs);
      rewrites = round;
      // A rewritten case's variant, run and problem replace its earlier ones; a case left unwritten keeps its failure.
      const redone = new Set([...again.jobs.map((j) => j.id), ...again.problems.map((p) => p.case)]);
      runs = [...runs.filter((r) => !redone.has(r.id)), ...rerun];
      built.problems = [...built.problems.filter((p) => !redone.has(p.case)), ...again.problems];
      built.reach = [...built.reach.filter((r) => !redone.has(r.case)), ...again.reach];
      built.lines = [...built.lines.filter((l) => !redone.has(l.case)), ...again.lines];
      checked = await light.checkAssertions({ cases, runs, problems: built.problems, lines: built.lines });
    }
    if (rewrites) {
      checked.verdicts = checked.verdicts.map((v) => (v.variantFault ? { ...v, reason: `excluded: the variant still failed in its own code after ${rewrites} rewrite(s); ${v.reason}` } : v));
    }
    const verdicts = checked.qualitative.length === 0
      ? checked.verdicts
      : await light.mergeQualitative({ verdicts: checked.verdicts, answer: answerOf(await agents.ask('assertion-judge', stage, iteration, qualitativePrompt(checked.qualitative), { outputSchema: 'qualitative-verdicts' })) });
    // Histories recorded before variants reported their reach have none: no localisation then.
    // With the variants' call recordings (absent in histories recorded before), suspects are ranked by evidence.
    return { assertions: verdicts, localisation: localiseCases(built.reach ?? [], runs, verdicts, OUTPUT_LINES, checked.calls) };
  })();
  const [rubric, { assertions, localisation }] = await Promise.all([rubricP, assertionsP]);
  return { rubric, assertions, localisation };
}

/**
 * Whether a scientific pass found nothing wrong: every rubric issue met (or no rubric), every
 * assertion correct — except those whose variant failed in its own code (excluded: they say nothing
 * about the script), as long as at least one case was checked.
 */
export function scientificVerdict(p: ScientificPass): { rubricOk: boolean; assertionsOk: boolean; passed: boolean } {
  const rubricOk = !p.rubric.available || p.rubric.failed.length === 0 || p.rubric.gradeMean === 1;
  const checked = p.assertions.filter((a) => !a.variantFault);
  const assertionsOk = checked.every((a) => a.judge === 'correct') && (checked.length > 0 || p.assertions.length === 0);
  return { rubricOk, assertionsOk, passed: rubricOk && assertionsOk };
}
