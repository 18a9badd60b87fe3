// generateContent over the official `@google/genai` SDK (Gemini API). SDK retries stay off (no
// retryOptions): Temporal decides about retries. The SDK's ApiError hides response headers, so the
// observing fetch keeps the last response's headers for Retry-After.
import { ApiError, FinishReason, FunctionCallingConfigMode, GoogleGenAI, HarmProbability, type Content, type GenerateContentConfig, type GenerateContentResponse, type Part } from '@google/genai';
import { countTokens, TOKENS_PER_MESSAGE } from './token-count.js';
import { isBodyTimeout, observingFetch, type ResponseMeta } from './http-fetch.js';
import { answerJsonSchema } from './json-schema.js';
import { retryAfterFromGoogleDetails, retryAfterFromHeaders } from './retry-after.js';
import { ProviderCallError, type ChatSession, type SessionInit, type ToolCallRequest, type Turn, type TurnOptions } from './session.js';

export interface GeminiEndpoint {
  alias: string;
  model: string;
  apiKey: string | undefined;
  baseUrl: string | undefined;
  timeoutMs: number;
  supportsTemperature: boolean;
}

export function geminiSession(ep: GeminiEndpoint, init: SessionInit): ChatSession {
  let lastResponse: ResponseMeta | undefined;
  let timeoutMs = ep.timeoutMs;
  const ai = new GoogleGenAI({
    apiKey: ep.apiKey,
    vertexai: false,
    httpOptions: {
      ...(ep.baseUrl ? { baseUrl: ep.baseUrl } : {}),
      timeout: ep.timeoutMs,
      fetch: observingFetch((meta) => (lastResponse = meta), () => timeoutMs),
    },
  });
  const system = init.messages.filter((m) => m.role === 'system').map((m) => m.text).join('\n\n');
  const contents: Content[] = init.messages
    .filter((m) => m.role !== 'system')
    .map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.text }] }));
  // Function-call ids we invented (the API often sends none) must not be echoed back.
  const syntheticIds = new Set<string>();

  const config = (opts: TurnOptions): GenerateContentConfig => {
    const c: GenerateContentConfig = {};
    if (system) c.systemInstruction = system;
    if (init.temperature !== undefined && ep.supportsTemperature) c.temperature = init.temperature;
    const cap = opts.maxOutputTokens ?? init.maxOutputTokens;
    if (cap !== undefined) c.maxOutputTokens = cap;
    if (init.tools?.length) {
      c.tools = [{ functionDeclarations: init.tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }];
      c.toolConfig = { functionCallingConfig: { mode: opts.toolChoice === 'none' ? FunctionCallingConfigMode.NONE : FunctionCallingConfigMode.AUTO } };
    }
    if (init.structured) {
      c.responseMimeType = 'application/json';
      c.responseJsonSchema = answerJsonSchema(init.structured.schema);
    }
    return c;
  };

  return {
    provider: ep.alias,
    scripted: false,
    async send(opts) {
      const request = { model: ep.model, contents: structuredClone(contents), config: config(opts) };
      lastResponse = undefined;
      timeoutMs = opts.timeoutMs ?? ep.timeoutMs;
      let response: GenerateContentResponse;
      try {
        response = await ai.models.generateContent({ ...request, config: { ...request.config, abortSignal: opts.signal, httpOptions: { timeout: timeoutMs } } });
      } catch (err) {
        throw normaliseError(err, request, lastResponse, opts.signal, timeoutMs);
      }
      return toTurn(request, response, syntheticIds);
    },
    addToolResults(turn, results) {
      // The model's own content goes back verbatim: it may carry thought signatures the API requires.
      const modelContent = (turn.response as GenerateContentResponse).candidates?.[0]?.content ?? { role: 'model', parts: [] };
      contents.push(modelContent);
      contents.push({
        role: 'user',
        parts: results.map((r): Part => ({
          functionResponse: { ...(syntheticIds.has(r.call.id) ? {} : { id: r.call.id }), name: r.call.name, response: { result: r.output } },
        })),
      });
    },
    addReask(turn, feedback) {
      contents.push({ role: 'model', parts: [{ text: turn.text }] }, { role: 'user', parts: [{ text: feedback }] });
    },
  };
}

/** Finish reasons that mean the model (or the provider's filter) declined to answer. */
const REFUSAL_FINISH = new Set<FinishReason>([
  FinishReason.SAFETY,
  FinishReason.RECITATION,
  FinishReason.BLOCKLIST,
  FinishReason.PROHIBITED_CONTENT,
  FinishReason.SPII,
  FinishReason.IMAGE_SAFETY,
  FinishReason.IMAGE_PROHIBITED_CONTENT,
]);

function refusalOf(response: GenerateContentResponse, text: string): string | undefined {
  const candidate = response.candidates?.[0];
  const block = response.promptFeedback?.blockReason;
  if (!candidate && block) {
    return `the prompt was blocked (blockReason ${block})${response.promptFeedback?.blockReasonMessage ? `: ${response.promptFeedback.blockReasonMessage}` : ''}`;
  }
  const reason = candidate?.finishReason;
  if (!reason || !REFUSAL_FINISH.has(reason)) return undefined;
  const flagged = (candidate.safetyRatings ?? []).filter((r) => r.blocked || r.probability === HarmProbability.HIGH).map((r) => r.category).filter(Boolean);
  return `the answer was stopped (finishReason ${reason}${flagged.length ? `: ${flagged.join(', ')}` : ''})${candidate.finishMessage ? `: ${candidate.finishMessage}` : ''}${text ? `; it began: ${text.slice(0, 200)}` : ''}`;
}

/** Gemini's tokenizer is not a library: counted with the documented approximation (activities/llm/token-count.ts). */
const GEMINI_FAMILY = 'gemini';

/** A prompt's tokens: each part's text (function calls and responses as JSON), the system instruction and the tool definitions. */
function promptTokens(request: { contents: Content[]; config: GenerateContentConfig }): number {
  const partText = (p: Part) => p.text ?? (p.functionCall || p.functionResponse ? JSON.stringify(p.functionCall ?? p.functionResponse) : '');
  const texts = request.contents.flatMap((c) => (c.parts ?? []).map(partText));
  const system = request.config.systemInstruction;
  return countTokens(GEMINI_FAMILY, [...texts, system ? (typeof system === 'string' ? system : JSON.stringify(system)) : '', request.config.tools ? JSON.stringify(request.config.tools) : '']) + TOKENS_PER_MESSAGE * request.contents.length;
}

function toTurn(request: { contents: Content[]; config: GenerateContentConfig }, response: GenerateContentResponse, syntheticIds: Set<string>): Turn {
  const candidate = response.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  const text = parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text).join('');
  const toolCalls: ToolCallRequest[] = [];
  parts.forEach((p, i) => {
    if (!p.functionCall) return;
    let id = p.functionCall.id;
    if (!id) {
      id = `gemini-call-${syntheticIds.size}-${i}`;
      syntheticIds.add(id);
    }
    toolCalls.push({ id, name: p.functionCall.name ?? '', args: p.functionCall.args ?? {} });
  });
  const u = response.usageMetadata;
  // No usageMetadata (or no prompt count, or no output count for a non-empty answer) must not make the call free: estimate it.
  const produced = text.length > 0 || toolCalls.length > 0;
  const hasUsage = typeof u?.promptTokenCount === 'number' && (typeof u.candidatesTokenCount === 'number' || !produced);
  const usage = hasUsage
    ? {
        inputTokens: (u!.promptTokenCount ?? 0) + (u!.toolUsePromptTokenCount ?? 0),
        // Thinking tokens are billed as output.
        outputTokens: (u!.candidatesTokenCount ?? 0) + (u!.thoughtsTokenCount ?? 0),
        cachedInputTokens: u!.cachedContentTokenCount ?? 0,
      }
    : {
        inputTokens: promptTokens(request),
        outputTokens: countTokens(GEMINI_FAMILY, [text, ...toolCalls.map((c) => `${c.name}${JSON.stringify(c.args ?? {})}`)]),
        cachedInputTokens: 0,
      };
  const refusal = refusalOf(response, text);
  return {
    text,
    toolCalls,
    usage,
    ...(hasUsage ? {} : { usageEstimated: true as const }),
    ...(refusal !== undefined ? { refusal } : {}),
    ...(candidate?.finishReason === FinishReason.MAX_TOKENS ? { truncated: true } : {}),
    request,
    response: JSON.parse(JSON.stringify({ ...response, sdkHttpResponse: undefined })),
    finishReason: candidate?.finishReason ?? response.promptFeedback?.blockReason,
  };
}

function normaliseError(err: unknown, request: unknown, last: ResponseMeta | undefined, signal: AbortSignal | undefined, timeoutMs: number): ProviderCallError {
  if (err instanceof ApiError) {
    // The SDK puts the JSON error body in the message: {"error":{"code","message","status","details"}}.
    let message = err.message;
    let details: unknown;
    let code: string | undefined;
    try {
      const body = JSON.parse(err.message) as { error?: { message?: string; details?: unknown; status?: unknown } };
      message = body.error?.message ?? message;
      details = body.error?.details;
      if (typeof body.error?.status === 'string') code = body.error.status;
    } catch {
      /* not JSON: keep the raw message */
    }
    const retryAfter = retryAfterFromHeaders(last?.status === err.status ? last.headers : undefined) ?? retryAfterFromGoogleDetails(details);
    return new ProviderCallError('http', message, request, err.status, retryAfter, { cause: err, code });
  }
  const e = err as Error;
  if (signal?.aborted) return new ProviderCallError('cancelled', 'the call was cancelled', request, undefined, undefined, { cause: err });
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError') return new ProviderCallError('timeout', `no response within ${timeoutMs} ms (${e.message})`, request, undefined, undefined, { cause: err });
  if (isBodyTimeout(err)) return new ProviderCallError('timeout', `the response stopped mid-body for ${timeoutMs} ms`, request, undefined, undefined, { cause: err });
  const cause = (e?.cause as Error | undefined)?.message;
  return new ProviderCallError('connection', `${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`, request, undefined, undefined, { cause: err });
}
