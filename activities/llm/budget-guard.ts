// The activity's side of budgets: refuse a call whose estimated cost exceeds what is left.
// Estimate = the conversation's tokens under the model's encoding (prompt-size.ts) + the output cap
// (maxOutputTokens, else llm.outputTokensEstimate).
// The same estimate is used for every provider, the scripted one included, so a replay takes the same decisions.
import type { ModelInfo } from '../../schemas/config.js';
import type { LlmBudget, LlmUsage } from '../../schemas/llm.js';
import { totalTokens } from '../../lib/llm/accounting.js';
import { costUsd } from '../../lib/llm/cost.js';

export interface CallEstimate {
  inputTokens: number;
  outputTokens: number;
}

export function estimateCall(inputTokens: number, outputCap: number): CallEstimate {
  return { inputTokens, outputTokens: outputCap };
}

export interface Refusal {
  /** True when the budget cannot be judged at all (a dollar budget for an unpriced model): a configuration error. */
  fatal: boolean;
  message: string;
}

/** Why the call is refused, or undefined when it fits. `spent` is what this activity already used (all attempts). */
export function budgetRefusal(budget: LlmBudget | undefined, spent: LlmUsage, estimate: CallEstimate, info: ModelInfo | undefined, modelId: string): Refusal | undefined {
  if (!budget) return undefined;
  const est = totalTokens(estimate);
  if (budget.remainingTokens !== undefined) {
    const left = budget.remainingTokens - totalTokens(spent);
    if (est > left) {
      return { fatal: false, message: `the next call to ${modelId} is estimated at ${est} tokens (${estimate.inputTokens} in + ${estimate.outputTokens} out) but ${Math.max(0, left)} tokens of the budget remain${estimatedSpend(budget, spent)}` };
    }
  }
  if (budget.remainingUsd !== undefined) {
    if (!info) return { fatal: true, message: `${modelId} has no price in physvec.config.json (llm.models), so a dollar budget cannot be enforced; add its price or use a token budget` };
    const left = budget.remainingUsd - costUsd(spent, info);
    const estUsd = costUsd({ ...estimate, cachedInputTokens: 0 }, info);
    if (estUsd > left) return { fatal: false, message: `the next call to ${modelId} is estimated at $${estUsd.toFixed(4)} but $${Math.max(0, left).toFixed(4)} of the budget remain${estimatedSpend(budget, spent)}` };
  }
  return undefined;
}

/** What a budget message adds when the spend it counts is partly estimated (a provider that reported no usage). */
function estimatedSpend(budget: LlmBudget, spent: LlmUsage): string {
  const n = (budget.estimatedTokens ?? 0) + (spent.estimatedTokens ?? 0);
  return n > 0 ? ` (tokens spent so far include ${n} estimated with a tokenizer: the provider reported no usage)` : '';
}
