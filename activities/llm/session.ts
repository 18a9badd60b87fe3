// What a provider adapter offers the call loop (call-llm.ts): one conversation, sent turn by turn.
// The loop owns tool execution, schema re-asks, budgets and recording; adapters only speak their wire format.
import type { TokenUsage, ToolSpec } from '../../schemas/llm.js';
import type { z } from 'zod';

export interface ResolvedMessage {
  role: 'system' | 'user' | 'assistant';
  text: string;
}

export interface ToolCallRequest {
  /** The provider's call id, or a synthetic one when the provider gives none. */
  id: string;
  name: string;
  args: unknown;
  /** Set when the model's arguments were not valid JSON; the tool is then not run. */
  argsError?: string;
}

export interface Turn {
  text: string;
  /** An answer that is already JSON (the scripted model's `json`); validated instead of parsing `text`. */
  json?: unknown;
  toolCalls: ToolCallRequest[];
  usage: TokenUsage;
  /** Provider-native request and response, for the exchange transcript. */
  request: unknown;
  response: unknown;
  finishReason?: string;
  /** The response had no usage: `usage` is counted with a tokenizer (activities/llm/token-count.ts). */
  usageEstimated?: true;
  /** The model declined to answer (OpenAI `refusal`, content filter; Gemini SAFETY and the like, a blocked prompt): what it said or why. */
  refusal?: string;
  /** The answer was cut off by the output cap (OpenAI finish_reason "length", Gemini MAX_TOKENS). */
  truncated?: boolean;
}

export interface TurnOptions {
  /** Only meaningful when the session has tools: 'none' forces an answer after the last allowed round. */
  toolChoice: 'auto' | 'none';
  signal?: AbortSignal;
  /** Output cap for this turn, replacing SessionInit.maxOutputTokens (a re-ask after a cut-off answer raises it). */
  maxOutputTokens?: number;
  /** Time to the first byte of the response (and the longest pause inside its body) for this turn; default the endpoint's timeout. */
  timeoutMs?: number;
}

export interface StructuredOutput {
  name: string;
  schema: z.ZodType;
}

export interface SessionInit {
  messages: ResolvedMessage[];
  tools?: ToolSpec[];
  structured?: StructuredOutput;
  temperature?: number;
  maxOutputTokens?: number;
}

export interface ChatSession {
  /** Provider alias, as in the model string. */
  readonly provider: string;
  /** True for the scripted model: turns are not HTTP calls, and re-asking cannot change the answer. */
  readonly scripted: boolean;
  send(opts: TurnOptions): Promise<Turn>;
  addToolResults(turn: Turn, results: Array<{ call: ToolCallRequest; output: string }>): void;
  addReask(turn: Turn, feedback: string): void;
}

export type ProviderErrorKind = 'http' | 'connection' | 'timeout' | 'cancelled';

/** A failed provider call, normalised across SDKs; errors.ts turns it into a Temporal failure. */
export class ProviderCallError extends Error {
  override name = 'ProviderCallError';
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly request: unknown,
    readonly status?: number,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown; code?: string },
  ) {
    super(message, options);
    this.code = options?.code;
  }
  /** The provider's own error code or status name, when it sent one (context_length_exceeded, INVALID_ARGUMENT…). */
  readonly code?: string;
}
