// Chat completions over the official `openai` SDK: OpenAI itself and every OpenAI-compatible
// endpoint (Qwen DashScope, Anthropic's compatibility API, DeepSeek, OpenRouter, vLLM, Ollama).
// SDK retries are off: Temporal decides about retries (errors.ts).
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ProviderConfig } from '../../schemas/config.js';
import { countTokens, TOKENS_PER_MESSAGE } from './token-count.js';
import { isBodyTimeout, observingFetch } from './http-fetch.js';
import { answerJsonSchema, openAiJsonSchema } from './json-schema.js';
import { retryAfterFromHeaders } from './retry-after.js';
import { ProviderCallError, type ChatSession, type SessionInit, type ToolCallRequest, type Turn, type TurnOptions } from './session.js';

export interface OpenAiEndpoint {
  alias: string;
  config: ProviderConfig;
  model: string;
  apiKey: string | undefined;
  baseUrl: string | undefined;
  timeoutMs: number;
  supportsTemperature: boolean;
}

export function openAiSession(ep: OpenAiEndpoint, init: SessionInit): ChatSession {
  let timeoutMs = ep.timeoutMs;
  const client = new OpenAI({
    // Keyless local servers (vLLM, Ollama) still need a non-empty string for the SDK.
    apiKey: ep.apiKey ?? 'no-key-needed',
    baseURL: ep.baseUrl ?? null,
    maxRetries: 0,
    timeout: ep.timeoutMs,
    fetch: observingFetch(() => {}, () => timeoutMs),
  });
  const messages: ChatCompletionMessageParam[] = init.messages.map((m) => ({ role: m.role, content: m.text }));
  if (init.structured && ep.config.structuredOutput === 'json_object') {
    const schema = JSON.stringify(answerJsonSchema(init.structured.schema));
    messages.unshift({ role: 'system', content: `Answer with only a JSON object that matches this JSON schema:\n${schema}` });
  }

  const body = (opts: TurnOptions): ChatCompletionCreateParamsNonStreaming => {
    const b: ChatCompletionCreateParamsNonStreaming = { model: ep.model, messages: [...messages] };
    if (init.temperature !== undefined && ep.supportsTemperature) b.temperature = init.temperature;
    const cap = opts.maxOutputTokens ?? init.maxOutputTokens;
    if (cap !== undefined) b[ep.config.maxTokensField] = cap;
    if (init.tools?.length) {
      b.tools = init.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
      b.tool_choice = opts.toolChoice;
    }
    if (init.structured) {
      if (ep.config.structuredOutput === 'json_object') b.response_format = { type: 'json_object' };
      else {
        const { schema, strict } = openAiJsonSchema(init.structured.schema);
        b.response_format = { type: 'json_schema', json_schema: { name: init.structured.name.replace(/[^a-zA-Z0-9_-]/g, '_'), schema, strict } };
      }
    }
    return b;
  };

  return {
    provider: ep.alias,
    scripted: false,
    async send(opts) {
      const request = body(opts);
      timeoutMs = opts.timeoutMs ?? ep.timeoutMs;
      let response: ChatCompletion;
      try {
        response = await client.chat.completions.create(request, { signal: opts.signal, timeout: timeoutMs });
      } catch (err) {
        throw normaliseError(err, request, timeoutMs);
      }
      return toTurn(request, response);
    },
    addToolResults(turn, results) {
      const msg = (turn.response as ChatCompletion).choices[0]!.message;
      messages.push({ role: 'assistant', content: msg.content ?? null, tool_calls: msg.tool_calls });
      for (const r of results) messages.push({ role: 'tool', tool_call_id: r.call.id, content: r.output });
    },
    addReask(turn, feedback) {
      messages.push({ role: 'assistant', content: turn.text }, { role: 'user', content: feedback });
    },
  };
}

/** A prompt's tokens under the model's tokenizer (activities/llm/token-count.ts): each message's text, its tool calls, its framing, and the tool definitions. */
function promptTokens(request: ChatCompletionCreateParamsNonStreaming): number {
  const texts = request.messages.flatMap((m) => [
    typeof m.content === 'string' ? m.content : m.content ? JSON.stringify(m.content) : '',
    'tool_calls' in m && m.tool_calls ? JSON.stringify(m.tool_calls) : '',
  ]);
  return countTokens(request.model, [...texts, request.tools ? JSON.stringify(request.tools) : '']) + TOKENS_PER_MESSAGE * request.messages.length;
}

function toTurn(request: ChatCompletionCreateParamsNonStreaming, response: ChatCompletion): Turn {
  const choice = response.choices?.[0];
  if (!choice) throw new ProviderCallError('http', 'the response has no choices', request, 502);
  const msg = choice.message;
  const toolCalls: ToolCallRequest[] = [];
  for (const tc of msg.tool_calls ?? []) {
    if (tc.type !== 'function') continue;
    try {
      toolCalls.push({ id: tc.id, name: tc.function.name, args: tc.function.arguments ? JSON.parse(tc.function.arguments) : {} });
    } catch (err) {
      toolCalls.push({ id: tc.id, name: tc.function.name, args: tc.function.arguments, argsError: `arguments are not valid JSON: ${(err as Error).message}` });
    }
  }
  const u = response.usage;
  const text = msg.content ?? '';
  // A server that sends no usage (some OpenAI-compatible ones) must not make the call free: estimate it.
  const hasUsage = typeof u?.prompt_tokens === 'number' && typeof u?.completion_tokens === 'number';
  const usage = hasUsage
    ? { inputTokens: u!.prompt_tokens, outputTokens: u!.completion_tokens, cachedInputTokens: u!.prompt_tokens_details?.cached_tokens ?? 0 }
    : {
        inputTokens: promptTokens(request),
        outputTokens: countTokens(request.model, [text, msg.refusal ?? '', ...(msg.tool_calls ?? []).map((tc) => JSON.stringify(tc))]),
        cachedInputTokens: 0,
      };
  const refusal = msg.refusal
    ? msg.refusal
    : choice.finish_reason === 'content_filter'
      ? `the provider's content filter stopped the answer (finish_reason "content_filter")${text ? `; it began: ${text.slice(0, 200)}` : ''}`
      : undefined;
  return {
    text,
    toolCalls,
    usage,
    ...(hasUsage ? {} : { usageEstimated: true as const }),
    ...(refusal !== undefined ? { refusal } : {}),
    ...(choice.finish_reason === 'length' ? { truncated: true } : {}),
    request,
    response,
    finishReason: choice.finish_reason,
  };
}

function normaliseError(err: unknown, request: unknown, timeoutMs: number): ProviderCallError {
  if (err instanceof APIUserAbortError) return new ProviderCallError('cancelled', 'the call was cancelled', request, undefined, undefined, { cause: err });
  if (err instanceof APIConnectionTimeoutError) return new ProviderCallError('timeout', `no response within ${timeoutMs} ms (${err.message})`, request, undefined, undefined, { cause: err });
  if (isBodyTimeout(err)) return new ProviderCallError('timeout', `the response stopped mid-body for ${timeoutMs} ms`, request, undefined, undefined, { cause: err });
  if (err instanceof APIConnectionError) return new ProviderCallError('connection', `${err.message}${err.cause ? ` (${(err.cause as Error).message})` : ''}`, request, undefined, undefined, { cause: err });
  if (err instanceof APIError) {
    const body = err.error as { message?: string; code?: unknown } | undefined;
    const code = typeof err.code === 'string' ? err.code : typeof body?.code === 'string' ? body.code : undefined;
    return new ProviderCallError('http', body?.message ?? err.message, request, err.status as number | undefined, retryAfterFromHeaders(err.headers as Headers | undefined), { cause: err, code });
  }
  return new ProviderCallError('connection', (err as Error)?.message ?? String(err), request, undefined, undefined, { cause: err });
}
