// A loopback server speaking OpenAI's chat-completions wire format, for driving the real `openai` SDK.
import { FakeLlmServer, type FakeReply } from './fake-llm-http.js';

export interface OpenAiUsage {
  prompt: number;
  completion: number;
  cached?: number;
}

let ids = 0;

/** `usage: null` sends a response without `usage` (as some OpenAI-compatible servers do); `refusal` is the model's refusal text. */
export function chatReply(opts: { content?: string | null; toolCalls?: Array<{ name: string; args: unknown; id?: string }>; usage: OpenAiUsage | null; model?: string; finishReason?: string; refusal?: string }): FakeReply {
  const toolCalls = opts.toolCalls?.map((c) => ({ id: c.id ?? `call_${++ids}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
  return {
    body: {
      id: `chatcmpl-${++ids}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: opts.model ?? 'fake-model',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: opts.content ?? null, refusal: opts.refusal ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
          finish_reason: opts.finishReason ?? (toolCalls ? 'tool_calls' : 'stop'),
          logprobs: null,
        },
      ],
      ...(opts.usage
        ? {
            usage: {
              prompt_tokens: opts.usage.prompt,
              completion_tokens: opts.usage.completion,
              total_tokens: opts.usage.prompt + opts.usage.completion,
              prompt_tokens_details: { cached_tokens: opts.usage.cached ?? 0 },
            },
          }
        : {}),
    },
  };
}

export function openAiError(status: number, message: string, headers?: Record<string, string>, code: string | null = null): FakeReply {
  return { status, headers, body: { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', param: null, code } } };
}

/** OpenAI's 400 for a prompt longer than the model's window. */
export function openAiContextLength(tokens: number, window = 128000): FakeReply {
  return openAiError(
    400,
    `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
    undefined,
    'context_length_exceeded',
  );
}

/** `baseUrl` is what goes into the SDK's baseURL (…/v1). With `apiKey` set, other keys get a 401. */
export async function startFakeOpenAI(opts: { apiKey?: string } = {}): Promise<FakeLlmServer & { baseUrl: string }> {
  const server = await FakeLlmServer.start({
    routes: (p) => p.startsWith('/v1/chat/completions'),
    authorise: (req) =>
      opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}` ? openAiError(401, 'Incorrect API key provided.') : undefined,
    exhausted: () => openAiError(400, 'fake OpenAI server: the test scripted no reply for this request'),
  });
  return Object.assign(server, { baseUrl: `${server.origin}/v1` });
}
