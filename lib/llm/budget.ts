// A reproduction's LLM budget: limits from config/CLI, what is left given the ledger. Pure.
import type { LlmBudget, LlmLedger } from '../../schemas/llm.js';
import { totalTokens } from './accounting.js';

export interface BudgetLimit {
  maxTokens?: number | null;
  maxUsd?: number | null;
}

/** What to put in LlmRequest.budget; undefined when there is no limit. */
export function remainingBudget(limit: BudgetLimit, ledger: LlmLedger): LlmBudget | undefined {
  const out: LlmBudget = {};
  if (limit.maxTokens != null) out.remainingTokens = limit.maxTokens - totalTokens(ledger.total);
  if (limit.maxUsd != null) out.remainingUsd = limit.maxUsd - ledger.total.costUsd;
  if (Object.keys(out).length && ledger.total.estimatedTokens) out.estimatedTokens = ledger.total.estimatedTokens;
  return Object.keys(out).length ? out : undefined;
}

/** True when the ledger has already reached a limit, so no further call should even be tried. */
export function budgetSpent(limit: BudgetLimit, ledger: LlmLedger): boolean {
  const r = remainingBudget(limit, ledger);
  return !!r && ((r.remainingTokens !== undefined && r.remainingTokens <= 0) || (r.remainingUsd !== undefined && r.remainingUsd <= 0));
}
