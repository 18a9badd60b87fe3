// The LLM layer's boundary types: what a workflow sends to the `callLlm` activity, what comes back,
// what is recorded per exchange, and the scripted model's cassette format. Pure zod: safe to import
// from workflow code.
import { z } from 'zod';
import { ArtifactRef } from './artifact.js';

/** `<provider alias>:<model>`, e.g. `openai:gpt-5.1`, `gemini:gemini-2.5-pro`, `qwen:qwen-max`, `scripted:demo`. */
export const ModelId = z
  .string()
  .regex(/^[a-z][a-z0-9-]*:\S.*$/, 'a model string `<provider>:<model>`, e.g. `openai:gpt-5.1`, `gemini:gemini-2.5-flash` or `scripted:<cassette>`');
export type ModelId = z.infer<typeof ModelId>;

/**
 * Which call this is, in the workflow's terms. `seq` counts the calls a workflow made with the same
 * (role, stage, iteration), from 0, so the scripted model can match without looking at the prompt.
 */
export const LlmCallKey = z.object({
  role: z.string().min(1),
  stage: z.string().min(1),
  iteration: z.number().int().nonnegative(),
  seq: z.number().int().nonnegative(),
});
export type LlmCallKey = z.infer<typeof LlmCallKey>;

/** Big texts (a TeX source, a script) travel as artifact references and are read in the activity. */
export const ContentPart = z.union([
  z.object({ text: z.string() }).strict(),
  z.object({ artifact: ArtifactRef, label: z.string().optional() }).strict(),
]);
export type ContentPart = z.infer<typeof ContentPart>;

export const LlmMessage = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.union([z.string(), z.array(ContentPart).min(1)]),
});
export type LlmMessage = z.infer<typeof LlmMessage>;

/** A function the model may call; `parameters` is a JSON schema of its argument object. */
export const ToolSpec = z.object({
  name: z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/, 'a function name: letters, digits, _ and -, at most 64 characters'),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
});
export type ToolSpec = z.infer<typeof ToolSpec>;

/** What is left of the reproduction's budget when the call is made (the workflow computes it from its ledger). */
export const LlmBudget = z.object({
  remainingTokens: z.number().optional(),
  remainingUsd: z.number().optional(),
  /** Tokens the ledger counted from calls whose provider reported no usage (counted with a tokenizer, activities/llm/token-count.ts). */
  estimatedTokens: z.number().optional(),
});
export type LlmBudget = z.infer<typeof LlmBudget>;

/**
 * The truths a prompt to a script-writing role must not carry (activities/llm/truth-guard.ts): every
 * limiting-case and scientific-result truth of the task, what the task states itself (exempt values),
 * the article's TeX when it is the source (its values are the article's) and the allow-listed published values.
 */
export const TruthGuard = z.object({
  cases: z.array(z.object({ id: z.string(), truth: z.string(), content: z.string().optional() })),
  request: z.string().optional(),
  articleRef: ArtifactRef.optional(),
  allowed: z.array(z.object({ value: z.number(), source: z.string() })).default([]),
});
export type TruthGuard = z.infer<typeof TruthGuard>;

export const LlmRequest = z.object({
  key: LlmCallKey,
  model: ModelId,
  messages: z.array(LlmMessage).min(1),
  temperature: z.number().min(0).max(2).optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  tools: z.array(ToolSpec).optional(),
  /** Name of a schema in schemas/llm-outputs.ts; the answer is then parsed and validated against it. */
  outputSchema: z.string().optional(),
  budget: LlmBudget.optional(),
  /** Present for the roles that write scripts: the prompt is checked against these truths before it is sent. */
  truthGuard: TruthGuard.optional(),
});
export type LlmRequest = z.infer<typeof LlmRequest>;

/** Tokens as the provider bills them. `inputTokens` includes `cachedInputTokens` (both providers report it so). */
export const TokenUsage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

/**
 * Usage of one `callLlm` activity, summed over every HTTP call it made, including failed HTTP calls,
 * schema re-asks, tool rounds and earlier Temporal attempts of the same activity (see activities/llm/attempt-ledger.ts).
 */
export const LlmUsage = TokenUsage.extend({
  /** HTTP calls to the provider, failed ones included (0 for the scripted model). */
  calls: z.number().int().nonnegative(),
  /** Schema re-asks plus transient failures (429/5xx/timeouts) seen, including those that made Temporal retry. */
  retries: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  latencyMs: z.number().nonnegative(),
  /**
   * Of inputTokens + outputTokens, how many are estimated (characters / 4) because the provider's
   * response had no usage; present (with `estimated: true`) only when some are.
   */
  estimatedTokens: z.number().int().nonnegative().optional(),
  estimated: z.literal(true).optional(),
});
export type LlmUsage = z.infer<typeof LlmUsage>;

export const ToolCallRecord = z.object({
  /** 0-based tool round within the call. */
  round: z.number().int().nonnegative(),
  name: z.string(),
  args: z.unknown(),
  resultPreview: z.string(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecord>;

/**
 * The activity's answer. Kept small for the workflow history (see lib/llm/limits.ts for the rule):
 * a long `text` is cut to a preview and the whole answer is in `textRef`; a big `parsed` moves to `parsedRef`.
 */
export const LlmResult = z.object({
  text: z.string(),
  textRef: ArtifactRef.optional(),
  textTruncated: z.boolean(),
  parsed: z.unknown().optional(),
  parsedRef: ArtifactRef.optional(),
  toolCalls: z.array(ToolCallRecord),
  usage: LlmUsage,
  costUsd: z.number().nonnegative(),
  /** False when the model has no entry in the price table: costUsd is then 0 and not a real figure. */
  priced: z.boolean(),
  model: ModelId,
  provider: z.string(),
  /** True for answers served by the scripted model (a cassette), never by a real model. */
  scripted: z.boolean(),
  /** Transcript of this attempt: every HTTP request/response/usage, with links to earlier attempts' transcripts. */
  exchangeRef: ArtifactRef,
  /** Temporal attempt that succeeded (1 = first). */
  attempt: z.number().int().positive(),
  /**
   * Earlier attempts lost to a worker crash (no transcript written); their usage is in `usage` as far
   * as their last heartbeat told, and `usageUnknown` of them had told nothing.
   */
  lostAttempts: z.object({ count: z.number().int().nonnegative(), usageUnknown: z.number().int().nonnegative() }).optional(),
});
export type LlmResult = z.infer<typeof LlmResult>;

/** Usage carried in the details of a non-retryable failure (budget, schema, fatal), so the workflow can still count it. */
export const LlmFailureDetails = z.object({
  key: LlmCallKey,
  model: ModelId,
  usage: LlmUsage,
  costUsd: z.number().nonnegative(),
  exchangeRef: ArtifactRef.optional(),
});
export type LlmFailureDetails = z.infer<typeof LlmFailureDetails>;

/** One HTTP call (or one scripted turn) inside an exchange transcript. */
export const HttpCallRecord = z.object({
  /** larger-cap: the same conversation again under a larger output cap, after an answer cut off by the cap. */
  purpose: z.enum(['answer', 'tool-round', 'reask', 'final-without-tools', 'larger-cap']),
  startedAt: z.string(),
  latencyMs: z.number().nonnegative(),
  request: z.unknown(),
  response: z.unknown().optional(),
  error: z.object({ kind: z.string(), status: z.number().optional(), message: z.string(), retryAfterMs: z.number().optional() }).optional(),
  usage: TokenUsage,
  /** The response carried no usage: `usage` is estimated from the characters sent and received. */
  usageEstimated: z.literal(true).optional(),
  /** Why the model stopped (provider's word: stop, length, MAX_TOKENS, SAFETY, …). */
  finishReason: z.string().optional(),
  /** The output cap this call was sent with, when one was. */
  maxOutputTokens: z.number().optional(),
});
export type HttpCallRecord = z.infer<typeof HttpCallRecord>;

/** The artifact written for every attempt of every `callLlm` activity, successful or not. */
export const LlmExchange = z.object({
  kind: z.literal('physvec.llm-exchange'),
  version: z.literal(1),
  key: LlmCallKey,
  model: ModelId,
  provider: z.string(),
  scripted: z.boolean(),
  workflowId: z.string().optional(),
  runId: z.string().optional(),
  activityId: z.string().optional(),
  attempt: z.number().int().positive(),
  startedAt: z.string(),
  outcome: z.enum(['ok', 'error']),
  error: z.object({ type: z.string(), message: z.string() }).optional(),
  httpCalls: z.array(HttpCallRecord),
  toolCalls: z.array(ToolCallRecord),
  /** Full tool results, parallel to toolCalls (the result carries only previews). */
  toolOutputs: z.array(z.string()),
  /** This attempt alone. */
  attemptUsage: LlmUsage,
  /** Earlier Temporal attempts of the same activity, as carried by heartbeat details. */
  priorAttempts: z.array(z.object({ attempt: z.number().int(), usage: LlmUsage, exchangeRef: ArtifactRef.optional() })),
  /** This attempt plus the earlier ones: what the result reports. */
  totalUsage: LlmUsage,
  answer: z.object({ text: z.string(), parsed: z.unknown().optional() }).optional(),
});
export type LlmExchange = z.infer<typeof LlmExchange>;

// ---- scripted model ------------------------------------------------------------------------------

export const CassetteToolCall = z.object({ name: z.string(), args: z.unknown() });

export const CassetteEntry = z
  .object({
    role: z.string().min(1),
    stage: z.string().min(1),
    /** A number, or "*" for an answer that serves every iteration not listed explicitly. */
    iteration: z.union([z.number().int().nonnegative(), z.literal('*')]),
    /** Call number within (role, stage, iteration), from 0. Default: this entry's position among the entries with that key. */
    seq: z.number().int().nonnegative().optional(),
    /** Tool-call rounds before the answer; the tools really run, through the worker's executors. */
    rounds: z.array(z.object({ toolCalls: z.array(CassetteToolCall).min(1) })).optional(),
    text: z.string().optional(),
    /** A structured answer; it is validated against the request's outputSchema. */
    json: z.unknown().optional(),
    /** Tokens to report for this answer (e.g. recorded from a real run). Absent: zero tokens. Cost is always $0. */
    usage: z.object({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative(), cachedInputTokens: z.number().int().nonnegative().optional() }).optional(),
  })
  .strict()
  .refine((e) => e.text !== undefined || e.json !== undefined, { message: 'an entry needs `text` or `json` (the answer)' });
export type CassetteEntry = z.infer<typeof CassetteEntry>;

export const Cassette = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    /** Where it came from, e.g. the workflow id it was exported from. */
    source: z.object({ workflowId: z.string(), runId: z.string().optional(), exportedAt: z.string() }).optional(),
    entries: z.array(CassetteEntry),
  })
  .strict();
export type Cassette = z.infer<typeof Cassette>;

// ---- accounting ----------------------------------------------------------------------------------

export const UsageTotals = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedInputTokens: z.number(),
  /** HTTP calls, failed ones included. */
  calls: z.number(),
  retries: z.number(),
  toolCalls: z.number(),
  latencyMs: z.number(),
  costUsd: z.number(),
  /** `callLlm` activities counted (successful or failed with usage). */
  llmCalls: z.number(),
  failedLlmCalls: z.number(),
  scriptedCalls: z.number(),
  unpricedCalls: z.number(),
  /** Attempts of calls lost to worker crashes (re-issued), and how many of them have unknown tokens. Absent in older records. */
  lostAttempts: z.number().optional(),
  lostAttemptsUsageUnknown: z.number().optional(),
  /** Of the tokens, how many are estimated (the provider reported no usage); with `estimated: true`. Absent when none are. */
  estimatedTokens: z.number().optional(),
  estimated: z.literal(true).optional(),
});
export type UsageTotals = z.infer<typeof UsageTotals>;

/** Sums per role, stage, iteration and model, plus the total. Iteration keys are decimal strings. */
export const LlmLedger = z.object({
  total: UsageTotals,
  byRole: z.record(z.string(), UsageTotals),
  byStage: z.record(z.string(), UsageTotals),
  byIteration: z.record(z.string(), UsageTotals),
  byModel: z.record(z.string(), UsageTotals),
});
export type LlmLedger = z.infer<typeof LlmLedger>;
