// LLM failures as Temporal sees them. Non-retryable types fail the activity at once and carry the
// usage spent so far in their details; transient provider faults are retryable ApplicationFailures
// whose nextRetryDelay is the provider's Retry-After, so Temporal's retry policy does the waiting.
import { ApplicationFailure, type RetryPolicy } from '@temporalio/common';
import { msOptionalToNumber } from '@temporalio/common/lib/time.js';
import { LLM_ERROR } from '../../lib/llm/failures.js';
import type { LlmFailureDetails } from '../../schemas/llm.js';
import type { ProviderCallError } from './session.js';

function failure(type: string, message: string, nonRetryable: boolean, details?: LlmFailureDetails, nextRetryDelay?: number): ApplicationFailure {
  return ApplicationFailure.create({
    type,
    message,
    nonRetryable,
    details: details ? [details] : undefined,
    nextRetryDelay: nextRetryDelay !== undefined ? Math.max(1, Math.round(nextRetryDelay)) : undefined,
  });
}


export interface ProviderContext {
  modelId: string;
  provider: string;
  baseUrl?: string;
  apiKeyEnv: string | null;
  /** The agent role that asked (for advice naming --role-model). */
  role?: string;
  /** The conversation's size when the call failed, described (for a context-length failure: prompt-size.ts). */
  prompt?: string;
  /** The model's context window from physvec.config.json (llm.models), if known. */
  contextWindow?: number;
  /** The activity's retry facts; absent outside a worker. */
  retry?: RetryFacts;
}

/** What the activity knows of its own retries (from its Temporal activity info). */
export interface RetryFacts {
  attempt: number;
  /** When the first attempt was scheduled (ms since the epoch). */
  scheduledTimestampMs: number;
  /** 0/undefined = no schedule-to-close deadline. */
  scheduleToCloseTimeoutMs?: number;
  retryPolicy?: RetryPolicy;
}

export interface RetryOutlook {
  willRetry: boolean;
  /** The wait before the next attempt: the provider's Retry-After, else the policy's backoff. */
  delayMs: number;
  /** Since the first attempt was scheduled. */
  elapsedMs: number;
  /** Time left before the call's deadline, if it has one. */
  leftMs?: number;
  /** Why there is no next attempt. */
  reason?: string;
}

/** Whether Temporal will run another attempt after this one fails retryably, computed as the server does. */
export function retryOutlook(facts: RetryFacts, retryAfterMs: number | undefined, now = Date.now()): RetryOutlook {
  const p = facts.retryPolicy ?? {};
  const initial = msOptionalToNumber(p.initialInterval) ?? 1000;
  const coefficient = p.backoffCoefficient ?? 2;
  const maxInterval = msOptionalToNumber(p.maximumInterval) ?? 100 * initial;
  const backoff = Math.min(initial * coefficient ** Math.max(0, facts.attempt - 1), maxInterval);
  const delayMs = retryAfterMs !== undefined ? Math.max(1, Math.round(retryAfterMs)) : backoff;
  const elapsedMs = Math.max(0, now - facts.scheduledTimestampMs);
  const budget = facts.scheduleToCloseTimeoutMs || undefined;
  const leftMs = budget !== undefined ? facts.scheduledTimestampMs + budget - now : undefined;
  const maxAttempts = p.maximumAttempts && Number.isFinite(p.maximumAttempts) ? p.maximumAttempts : undefined;
  if (maxAttempts !== undefined && facts.attempt >= maxAttempts) {
    return { willRetry: false, delayMs, elapsedMs, leftMs, reason: `that was the last of the ${maxAttempts} attempts the retry policy allows` };
  }
  if (leftMs !== undefined && delayMs >= leftMs) {
    return {
      willRetry: false, delayMs, elapsedMs, leftMs,
      reason: `the next attempt (in ${duration(delayMs)}${retryAfterMs !== undefined ? ', as the provider asked' : ''}) would start after the call's deadline of ${duration(budget!)} (LLM_ACTIVITY.scheduleToCloseTimeout in temporal-config/timeouts.ts)`,
    };
  }
  return { willRetry: true, delayMs, elapsedMs, leftMs };
}

/** 4m10s, 47s, 1.5s. */
export function duration(ms: number): string {
  if (ms < 10_000) return `${Math.round(ms / 100) / 10}s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** A 400 (or 413) because the conversation does not fit the model's context window. */
export function isContextLength(err: ProviderCallError): boolean {
  if (err.kind !== 'http') return false;
  if (err.code === 'context_length_exceeded' || err.code === 'string_above_max_length') return true;
  if (err.status !== 400 && err.status !== 413) return false;
  return /context[ _-]?(length|window)|maximum context|too many tokens|input token count.*exceeds|prompt is too long|exceeds the maximum number of tokens/i.test(err.message);
}

/** Is this provider fault worth retrying? 408/409/429/5xx and network trouble are; other 4xx are not. */
export function isTransient(err: ProviderCallError): boolean {
  if (err.kind === 'connection' || err.kind === 'timeout') return true;
  if (err.kind !== 'http' || err.status === undefined) return false;
  return err.status === 408 || err.status === 409 || err.status === 429 || err.status >= 500;
}

/** The Temporal failure for a provider fault, with a message that says what to do. */
export function providerFailure(err: ProviderCallError, ctx: ProviderContext, details: LlmFailureDetails): ApplicationFailure {
  const where = `${ctx.modelId} (${ctx.baseUrl ?? `${ctx.provider}'s default endpoint`})`;
  if (isTransient(err)) {
    const what = err.kind === 'http' ? `HTTP ${err.status}` : err.kind;
    const wait = err.retryAfterMs !== undefined ? `; the provider asked to wait ${duration(err.retryAfterMs)}` : '';
    const head = `${where}: ${what}: ${err.message}${wait}`;
    if (!ctx.retry) return failure(LLM_ERROR.transient, `${head} (a transient fault: retryable)`, false, details, err.retryAfterMs);
    const o = retryOutlook(ctx.retry, err.retryAfterMs);
    const attempt = ctx.retry.attempt;
    if (!o.willRetry) {
      return failure(
        LLM_ERROR.unavailable,
        `${head} — gave up after ${attempt} attempt${attempt === 1 ? '' : 's'} over ${duration(o.elapsedMs)}: ${o.reason}; the provider is down or throttling: check its status page, then rerun`,
        true,
        details,
      );
    }
    const left = o.leftMs !== undefined ? `, ${duration(o.leftMs)} left before the call's deadline` : '';
    return failure(
      LLM_ERROR.transient,
      `${head} — provider unavailable for ${duration(o.elapsedMs)}, retrying in ${duration(o.delayMs)} (attempt ${attempt + 1} next${left})`,
      false,
      details,
      o.delayMs,
    );
  }
  const status = err.status;
  let advice: string;
  if (isContextLength(err)) {
    const tokens = ctx.prompt ?? 'too long';
    const window = ctx.contextWindow !== undefined ? `${ctx.contextWindow} tokens` : `not in physvec.config.json (llm.models["${ctx.modelId}"].contextWindow)`;
    advice =
      `the prompt is ${tokens} and does not fit the context window of ${ctx.modelId} (${window}): shorten the input (a shorter paper excerpt, fewer or smaller attached files) ` +
      `or choose a model with a bigger context window (--model <provider:model>${ctx.role ? ` or --role-model ${ctx.role}=<provider:model>` : ''})`;
  } else if (status === 401 || status === 403) {
    advice = ctx.apiKeyEnv
      ? `set ${ctx.apiKeyEnv} to a valid API key for this endpoint (provider "${ctx.provider}" in physvec.config.json)`
      : `this endpoint wants a key: set llm.providers.${ctx.provider}.apiKeyEnv in physvec.config.json and export that variable`;
  } else if (status === 404) {
    advice = `check the model name "${ctx.modelId}" and the base URL of provider "${ctx.provider}"`;
  } else {
    advice = 'the provider rejected the request; see the exchange transcript for the request body';
  }
  return failure(LLM_ERROR.fatal, `${where}: HTTP ${status ?? '?'}: ${err.message} — ${advice}`, true, details);
}

/** A refusal decided inside the activity; call-llm.ts turns it into the failure of that type, with usage details. */
export class LlmCallError extends Error {
  override name = 'LlmCallError';
  constructor(
    readonly type: typeof LLM_ERROR.fatal | typeof LLM_ERROR.budget | typeof LLM_ERROR.schema | typeof LLM_ERROR.cassette | typeof LLM_ERROR.refusal | typeof LLM_ERROR.truncated,
    message: string,
  ) {
    super(message);
  }
}

export function fatalWithoutUsage(message: string): ApplicationFailure {
  return failure(LLM_ERROR.fatal, message, true);
}

export function refusalFailure(err: LlmCallError, details: LlmFailureDetails): ApplicationFailure {
  return failure(err.type, err.message, true, details);
}
