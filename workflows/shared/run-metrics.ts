// Per-run metrics (schemas/campaign.ts RunMetrics) from what a run did: pure computation over the
// LLM ledger and the verifier reports, so computing them adds nothing to a workflow's history.
import type { LlmLedger, UsageTotals } from '../../schemas/llm.js';
import type { AssertionVerdict, RubricOutcome } from '../../schemas/pipeline.js';
import type { RunMetrics } from '../../schemas/campaign.js';

export type SpendMetrics = Pick<RunMetrics, 'tokensIn' | 'tokensOut' | 'toolCalls' | 'llmCalls' | 'costUsd'>;

export function spendOf(t: Pick<UsageTotals, 'inputTokens' | 'outputTokens' | 'toolCalls' | 'llmCalls' | 'costUsd'>): SpendMetrics {
  return { tokensIn: t.inputTokens, tokensOut: t.outputTokens, toolCalls: t.toolCalls, llmCalls: t.llmCalls, costUsd: t.costUsd };
}

/**
 * T_i, T_o, T_c (and calls, dollars) split into the framework's own calls and those of the given
 * stages (a baseline's `evaluation`: the scoring apparatus, not the framework under test).
 */
export function splitSpend(ledger: LlmLedger, stages: string[]): { own: SpendMetrics; other: SpendMetrics } {
  const other = { tokensIn: 0, tokensOut: 0, toolCalls: 0, llmCalls: 0, costUsd: 0 };
  for (const s of stages) {
    const t = ledger.byStage[s];
    if (!t) continue;
    other.tokensIn += t.inputTokens;
    other.tokensOut += t.outputTokens;
    other.toolCalls += t.toolCalls;
    other.llmCalls += t.llmCalls;
    other.costUsd += t.costUsd;
  }
  const all = spendOf(ledger.total);
  return {
    own: {
      tokensIn: all.tokensIn - other.tokensIn,
      tokensOut: all.tokensOut - other.tokensOut,
      toolCalls: all.toolCalls - other.toolCalls,
      llmCalls: all.llmCalls - other.llmCalls,
      costUsd: Math.max(0, all.costUsd - other.costUsd),
    },
    other,
  };
}

/** Assertions that passed / were asked, and the rubric's mean grade (null without a rubric). */
export function scientificCounts(round: { rubric: RubricOutcome; assertions: AssertionVerdict[] } | undefined): Pick<RunMetrics, 'assertionsPassed' | 'assertionsTotal' | 'rubricGrade'> {
  if (!round) return { assertionsPassed: 0, assertionsTotal: 0, rubricGrade: null };
  return {
    assertionsPassed: round.assertions.filter((a) => a.judge === 'correct').length,
    assertionsTotal: round.assertions.length,
    rubricGrade: round.rubric.available ? round.rubric.gradeMean : null,
  };
}

/** RunMetrics allow at most 1 for accuracies; a report's ratio is already in [0, 1] but guard rounding. */
export function ratio(x: number | null | undefined): number | null {
  return x === null || x === undefined || Number.isNaN(x) ? null : Math.min(1, Math.max(0, x));
}

/** Unit and integration accuracy of a programming report; null where there is nothing to measure (no element / run_ functions). */
export function programmingAccuracy(report: { judge_result: unknown[]; run_functions: unknown[]; unitAccuracy: number; integrationAccuracy: number } | undefined): Pick<RunMetrics, 'unitAccuracy' | 'integrationAccuracy'> {
  if (!report) return { unitAccuracy: null, integrationAccuracy: null };
  return {
    unitAccuracy: report.judge_result.length ? ratio(report.unitAccuracy) : null,
    integrationAccuracy: report.run_functions.length ? ratio(report.integrationAccuracy) : null,
  };
}
