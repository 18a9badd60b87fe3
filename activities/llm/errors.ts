// LLM failures as Temporal sees them. Non-retryable types fail the activity at once and carry the
// usage spent so far in their details; transient provider faults are retryable ApplicationFailures
// whose nextRetryDelay is the provider's Retry-After, so Temporal's retry policy does the waiting.
import { ApplicationFailure } from '@temporalio/common';
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
    const wait = err.retryAfterMs !== undefined ? `; the provider asked to wait ${err.retryAfterMs} ms` : '';
    return failure(LLM_ERROR.transient, `${where}: ${what}: ${err.message}${wait} (Temporal retries this call)`, false, details, err.retryAfterMs);
  }
  const status = err.status;
  let advice: string;
  if (status === 401 || status === 403) {
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
  constructor(readonly type: typeof LLM_ERROR.fatal | typeof LLM_ERROR.budget | typeof LLM_ERROR.schema | typeof LLM_ERROR.cassette, message: string) {
    super(message);
  }
}

export function fatalWithoutUsage(message: string): ApplicationFailure {
  return failure(LLM_ERROR.fatal, message, true);
}

export function refusalFailure(err: LlmCallError, details: LlmFailureDetails): ApplicationFailure {
  return failure(err.type, err.message, true, details);
}
