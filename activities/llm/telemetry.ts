// Metrics and a span for each callLlm attempt. The result (and a failure's details) carry usage summed
// over every attempt of the activity; only this attempt's share is counted, so a retried call is not
// counted twice.
import type { PhysvecConfig } from '../../schemas/config.js';
import type { LlmRequest, LlmResult, LlmUsage } from '../../schemas/llm.js';
import { costUsd, modelInfo } from '../../lib/llm/cost.js';
import { llmErrorType, llmFailureDetails } from '../../lib/llm/failures.js';
import { parseModelId } from '../../lib/llm/model-id.js';
import { recordLlmCall } from '../../lib/telemetry/metrics.js';
import { inSpan, type Settled } from '../../lib/telemetry/spans.js';
import { activityContext, priorAttempts, sumAttempts } from './attempt-ledger.js';

export function instrumentedLlmCall(config: PhysvecConfig, req: LlmRequest, call: () => Promise<LlmResult>): Promise<LlmResult> {
  const t0 = performance.now();
  const ctx = activityContext();
  const before = sumAttempts(priorAttempts(ctx));
  const provider = safeProvider(req.model);
  const info = modelInfo(config.llm.models, req.model);
  const thisAttempt = (usage: LlmUsage | undefined) => {
    const u = {
      inputTokens: Math.max(0, (usage?.inputTokens ?? 0) - before.inputTokens),
      outputTokens: Math.max(0, (usage?.outputTokens ?? 0) - before.outputTokens),
      cachedInputTokens: Math.max(0, (usage?.cachedInputTokens ?? 0) - before.cachedInputTokens),
    };
    return { ...u, costUsd: info ? costUsd(u, info) : 0 };
  };
  const describe = (end: Settled<LlmResult>) => {
    const usage = thisAttempt(end.ok ? end.value.usage : llmFailureDetails(end.error)?.usage);
    const outcome = end.ok ? 'ok' : (llmErrorType(end.error) ?? 'error');
    recordLlmCall({ provider, model: req.model, role: req.key?.role ?? 'unknown', outcome, seconds: (performance.now() - t0) / 1000, ...usage });
    return {
      'physvec.llm.outcome': outcome,
      'gen_ai.usage.input_tokens': usage.inputTokens,
      'gen_ai.usage.output_tokens': usage.outputTokens,
      'physvec.llm.cached_input_tokens': usage.cachedInputTokens,
      'physvec.llm.cost_usd': usage.costUsd,
      ...(end.ok ? { 'physvec.llm.tool_calls': end.value.toolCalls.length, 'physvec.llm.scripted': end.value.scripted } : {}),
    };
  };
  const attrs = {
    'gen_ai.system': provider,
    'gen_ai.request.model': req.model,
    'physvec.llm.role': req.key?.role ?? 'unknown',
    'physvec.llm.stage': req.key?.stage ?? 'unknown',
    'physvec.llm.iteration': req.key?.iteration ?? -1,
    'physvec.llm.attempt': ctx?.info.attempt ?? 1,
  };
  return inSpan(`LlmCall:${req.key?.role ?? 'unknown'}`, attrs, call, describe);
}

/** A malformed request is callLlm's to reject (with its own message), not the instrumentation's. */
function safeProvider(model: unknown): string {
  try {
    return parseModelId(String(model)).provider;
  } catch {
    return 'unknown';
  }
}
