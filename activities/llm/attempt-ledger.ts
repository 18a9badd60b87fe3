// Usage of earlier Temporal attempts of the same activity. A retried activity starts from scratch,
// so what a failed attempt spent would be lost; each attempt therefore heartbeats its running usage
// (and its transcript's reference), Temporal hands the last heartbeat of the previous attempt to the
// next one (also when the attempt failed: the SDK flushes it with the failure), and the successful
// attempt adds them all to its result. Limit: when a worker dies mid-call, only what its last
// delivered heartbeat said is known (heartbeats are throttled by the SDK). Such an attempt is *lost*:
// it wrote no transcript (an attempt that failed did), so it is counted apart — re-issued, its
// tokens known only as far as its heartbeats told, or not at all.
import { Context } from '@temporalio/activity';
import { AttemptRecord, LlmCallDetails } from '../../schemas/llm-call-details.js';
import type { LlmUsage } from '../../schemas/llm.js';
import { addUsage, emptyUsage } from '../../lib/llm/accounting.js';

const LedgerDetails = LlmCallDetails;

/** The activity context, or undefined when called outside a worker (unit tests call the function directly). */
export function activityContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}

export function priorAttempts(ctx: Context | undefined): AttemptRecord[] {
  if (!ctx) return [];
  const parsed = LedgerDetails.safeParse(ctx.info.heartbeatDetails);
  return parsed.success ? parsed.data.llmAttempts.filter((a) => a.attempt < ctx.info.attempt) : [];
}

/** Earlier attempts lost to a crash: no record at all, or a record without a transcript; usageUnknown = those that reported no tokens. */
export function lostAttempts(attempt: number, prior: AttemptRecord[]): { count: number; usageUnknown: number } {
  let count = 0;
  let usageUnknown = 0;
  for (let n = 1; n < attempt; n++) {
    const rec = prior.find((a) => a.attempt === n);
    if (rec?.exchangeRef) continue;
    count++;
    if (!rec || rec.usage.inputTokens + rec.usage.outputTokens === 0) usageUnknown++;
  }
  return { count, usageUnknown };
}

export function sumAttempts(attempts: AttemptRecord[]): LlmUsage {
  return attempts.reduce((acc, a) => addUsage(acc, a.usage), emptyUsage());
}

/** When the provider began failing transiently, as the previous attempt's last heartbeat said. */
export function unavailableSince(ctx: Context | undefined): number | undefined {
  const parsed = LedgerDetails.safeParse(ctx?.info.heartbeatDetails);
  return parsed.success ? parsed.data.unavailableSince : undefined;
}

export function heartbeatLedger(ctx: Context | undefined, prior: AttemptRecord[], current: AttemptRecord, extra: Omit<LlmCallDetails, 'llmAttempts'> = {}): void {
  ctx?.heartbeat({ llmAttempts: [...prior, current], ...extra });
}
