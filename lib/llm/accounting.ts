// Token and dollar sums per agent role, stage, iteration and model. Pure and immutable (each
// function returns a new value), so a workflow can keep its ledger in state and expose it by query.
import type { LlmCallKey, LlmLedger, LlmUsage, UsageTotals } from '../../schemas/llm.js';

export function emptyUsage(): LlmUsage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, calls: 0, retries: 0, toolCalls: 0, latencyMs: 0 };
}

export function addUsage(a: LlmUsage, b: LlmUsage): LlmUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    calls: a.calls + b.calls,
    retries: a.retries + b.retries,
    toolCalls: a.toolCalls + b.toolCalls,
    latencyMs: a.latencyMs + b.latencyMs,
    ...estimatedPart((a.estimatedTokens ?? 0) + (b.estimatedTokens ?? 0)),
  };
}

/** `{ estimatedTokens, estimated: true }` when some tokens are estimated, else nothing (older records stay as they were). */
export function estimatedPart(estimatedTokens: number): { estimatedTokens?: number; estimated?: true } {
  return estimatedTokens > 0 ? { estimatedTokens, estimated: true } : {};
}

/** " (N of them estimated: the provider reported no usage)" when some tokens of `u` are estimated, else "". */
export function estimatedNote(u: { estimatedTokens?: number }): string {
  return u.estimatedTokens ? ` (${u.estimatedTokens} of them estimated with a tokenizer: the provider reported no usage)` : '';
}

/** Billed tokens: input (cached included) plus output. What a token budget counts. */
export function totalTokens(u: { inputTokens: number; outputTokens: number }): number {
  return u.inputTokens + u.outputTokens;
}

export function emptyTotals(): UsageTotals {
  return { ...emptyUsage(), costUsd: 0, llmCalls: 0, failedLlmCalls: 0, scriptedCalls: 0, unpricedCalls: 0, lostAttempts: 0, lostAttemptsUsageUnknown: 0 };
}

export function addTotals(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    ...addUsage(a, b),
    costUsd: a.costUsd + b.costUsd,
    llmCalls: a.llmCalls + b.llmCalls,
    failedLlmCalls: a.failedLlmCalls + b.failedLlmCalls,
    scriptedCalls: a.scriptedCalls + b.scriptedCalls,
    unpricedCalls: a.unpricedCalls + b.unpricedCalls,
    lostAttempts: (a.lostAttempts ?? 0) + (b.lostAttempts ?? 0),
    lostAttemptsUsageUnknown: (a.lostAttemptsUsageUnknown ?? 0) + (b.lostAttemptsUsageUnknown ?? 0),
  };
}

export function emptyLedger(): LlmLedger {
  return { total: emptyTotals(), byRole: {}, byStage: {}, byIteration: {}, byModel: {} };
}

/** What one `callLlm` cost: a successful LlmResult, or the details of a failed call (see lib/llm/failures.ts). */
export interface CallOutcome {
  usage: LlmUsage;
  costUsd: number;
  model: string;
  scripted?: boolean;
  priced?: boolean;
  failed?: boolean;
  /** Attempts lost to worker crashes before this outcome (see activities/llm/attempt-ledger.ts). */
  lostAttempts?: { count: number; usageUnknown: number };
}

export function outcomeTotals(o: CallOutcome): UsageTotals {
  return {
    ...o.usage,
    costUsd: o.costUsd,
    llmCalls: 1,
    failedLlmCalls: o.failed ? 1 : 0,
    scriptedCalls: (o.scripted ?? o.model.startsWith('scripted:')) ? 1 : 0,
    unpricedCalls: o.priced === false ? 1 : 0,
    lostAttempts: o.lostAttempts?.count ?? 0,
    lostAttemptsUsageUnknown: o.lostAttempts?.usageUnknown ?? 0,
  };
}

function bump(buckets: Record<string, UsageTotals>, name: string, t: UsageTotals): Record<string, UsageTotals> {
  return { ...buckets, [name]: addTotals(buckets[name] ?? emptyTotals(), t) };
}

export function recordCall(ledger: LlmLedger, key: Pick<LlmCallKey, 'role' | 'stage' | 'iteration'>, outcome: CallOutcome): LlmLedger {
  const t = outcomeTotals(outcome);
  return {
    total: addTotals(ledger.total, t),
    byRole: bump(ledger.byRole, key.role, t),
    byStage: bump(ledger.byStage, key.stage, t),
    byIteration: bump(ledger.byIteration, String(key.iteration), t),
    byModel: bump(ledger.byModel, outcome.model, t),
  };
}
