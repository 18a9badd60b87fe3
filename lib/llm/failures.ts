// The LLM layer's failure types and how a workflow reads them. Pure (duck-typed, no SDK imports),
// so workflows can tell a spent budget from a broken model and still count the tokens a failed call used.
import { LlmFailureDetails } from '../../schemas/llm.js';

export const LLM_ERROR = {
  /** 400/401/403/404, missing key, unknown provider, bad request: fix the configuration. Non-retryable. */
  fatal: 'LlmFatalError',
  /** The next call would exceed the budget. Non-retryable; the workflow ends with status budget_exhausted. */
  budget: 'BudgetExhaustedError',
  /** The answer did not match its schema after the configured re-asks. Non-retryable. */
  schema: 'SchemaValidationError',
  /** The scripted model has no cassette entry for the call. Non-retryable. */
  cassette: 'CassetteMismatchError',
  /** 429/5xx/timeout/connection: retried by Temporal's retry policy (honouring Retry-After). */
  transient: 'LlmTransientError',
  /** A transient fault that outlived the call's retry deadline (LLM_ACTIVITY.scheduleToCloseTimeout). Non-retryable. */
  unavailable: 'LlmUnavailableError',
  /** The model declined to answer (OpenAI refusal / content filter, Gemini SAFETY etc., a blocked prompt). Non-retryable. */
  refusal: 'LlmRefusalError',
  /** The answer was still cut off by the output cap at the model's limit (or after the last larger cap). Non-retryable. */
  truncated: 'LlmTruncatedError',
} as const;

interface FailureLike {
  type?: unknown;
  details?: unknown;
  cause?: unknown;
}

/** The ApplicationFailure inside an ActivityFailure (or the failure itself), if any. */
function applicationFailure(err: unknown): FailureLike | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 5 && cur && typeof cur === 'object'; depth++) {
    const f = cur as FailureLike;
    if (typeof f.type === 'string') return f;
    cur = f.cause;
  }
  return undefined;
}

export function llmErrorType(err: unknown): string | undefined {
  return applicationFailure(err)?.type as string | undefined;
}

export function isBudgetExhausted(err: unknown): boolean {
  return llmErrorType(err) === LLM_ERROR.budget;
}

/** Usage that a failed call spent (schema re-asks, tool rounds, the budget refusal's earlier HTTP calls). */
export function llmFailureDetails(err: unknown): LlmFailureDetails | undefined {
  const details = applicationFailure(err)?.details;
  if (!Array.isArray(details) || details.length === 0) return undefined;
  const parsed = LlmFailureDetails.safeParse(details[0]);
  return parsed.success ? parsed.data : undefined;
}
