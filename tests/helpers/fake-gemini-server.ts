// A loopback server speaking the Gemini API's generateContent wire format, for driving the real
// `@google/genai` SDK (httpOptions.baseUrl = server.baseUrl).
import { FakeLlmServer, type FakeReply } from './fake-llm-http.js';

export interface GeminiUsage {
  prompt: number;
  candidates: number;
  cached?: number;
  thoughts?: number;
}

/** `usage: null` sends no usageMetadata; `safetyRatings` go on the candidate (with finishReason SAFETY for a stopped answer). */
export function geminiReply(opts: {
  text?: string;
  functionCalls?: Array<{ name: string; args: unknown; id?: string }>;
  usage: GeminiUsage | null;
  finishReason?: string;
  safetyRatings?: Array<{ category: string; probability: string; blocked?: boolean }>;
}): FakeReply {
  const parts: unknown[] = [];
  if (opts.text !== undefined) parts.push({ text: opts.text });
  for (const c of opts.functionCalls ?? []) parts.push({ functionCall: { name: c.name, args: c.args, ...(c.id ? { id: c.id } : {}) } });
  return {
    body: {
      candidates: [{ content: { role: 'model', parts }, finishReason: opts.finishReason ?? 'STOP', index: 0, ...(opts.safetyRatings ? { safetyRatings: opts.safetyRatings } : {}) }],
      ...(opts.usage
        ? {
            usageMetadata: {
              promptTokenCount: opts.usage.prompt,
              candidatesTokenCount: opts.usage.candidates,
              totalTokenCount: opts.usage.prompt + opts.usage.candidates + (opts.usage.thoughts ?? 0),
              ...(opts.usage.cached ? { cachedContentTokenCount: opts.usage.cached } : {}),
              ...(opts.usage.thoughts ? { thoughtsTokenCount: opts.usage.thoughts } : {}),
            },
          }
        : {}),
      modelVersion: 'fake-gemini',
      responseId: `resp-${Math.random().toString(36).slice(2)}`,
    },
  };
}

/** A prompt the API blocked before answering: no candidates, promptFeedback.blockReason. */
export function geminiBlockedPrompt(blockReason: string, promptTokens = 12): FakeReply {
  return {
    body: {
      promptFeedback: { blockReason, safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] },
      usageMetadata: { promptTokenCount: promptTokens, totalTokenCount: promptTokens },
      modelVersion: 'fake-gemini',
    },
  };
}

const STATUS_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

/** A Google API error body; `retryDelay` (e.g. "2s") adds a RetryInfo detail as the real API does on 429. */
export function geminiError(status: number, message: string, opts: { retryDelay?: string; headers?: Record<string, string> } = {}): FakeReply {
  const details = opts.retryDelay ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: opts.retryDelay }] : undefined;
  return { status, headers: opts.headers, body: { error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN', ...(details ? { details } : {}) } } };
}

/** `baseUrl` is what goes into httpOptions.baseUrl. With `apiKey` set, other keys get a 401. */
export async function startFakeGemini(opts: { apiKey?: string } = {}): Promise<FakeLlmServer & { baseUrl: string }> {
  const server = await FakeLlmServer.start({
    routes: (p) => /^\/v1beta\/models\/[^/:]+:generateContent/.test(p),
    authorise: (req) => (opts.apiKey && req.headers['x-goog-api-key'] !== opts.apiKey ? geminiError(401, 'API key not valid. Please pass a valid API key.') : undefined),
    exhausted: () => geminiError(400, 'fake Gemini server: the test scripted no reply for this request'),
  });
  return Object.assign(server, { baseUrl: server.origin });
}
