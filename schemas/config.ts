// physvec.config.json, the one configuration file. Sections are owned by the areas that use them;
// the root is loose so a section added by another area does not break older readers, while each
// section is strict so a misspelt key is reported instead of silently ignored.
import { z } from 'zod';
import { ModelId } from './llm.js';

const ProviderAlias = z.string().regex(/^[a-z][a-z0-9-]*$/, 'a provider alias: lower-case letters, digits and -');

export const ProviderConfig = z
  .object({
    /** Wire protocol: `openai` = chat completions (OpenAI and compatible endpoints), `gemini` = generateContent. */
    kind: z.enum(['openai', 'gemini']),
    /** Endpoint; absent = the SDK's default (api.openai.com / generativelanguage.googleapis.com). */
    baseUrl: z.string().url().optional(),
    /** Environment variable that, when set, replaces baseUrl (e.g. point a worker at a local server). */
    baseUrlEnv: z.string().optional(),
    /** Environment variable holding the key; null for endpoints that need none (a local vLLM or Ollama). */
    apiKeyEnv: z.string().nullable(),
    /** Newer OpenAI models take max_completion_tokens; most compatible servers only know max_tokens. */
    maxTokensField: z.enum(['max_completion_tokens', 'max_tokens']).default('max_completion_tokens'),
    /** json_schema = provider-enforced schema; json_object = JSON mode with the schema written into the prompt. */
    structuredOutput: z.enum(['json_schema', 'json_object']).default('json_schema'),
    /** Per HTTP call; absent = llm.requestTimeoutMs. */
    requestTimeoutMs: z.number().int().positive().optional(),
  })
  .strict();
export type ProviderConfig = z.infer<typeof ProviderConfig>;

/** Price per million tokens, in US dollars, and what the model accepts. */
export const ModelInfo = z
  .object({
    inputPerMTok: z.number().nonnegative(),
    outputPerMTok: z.number().nonnegative(),
    /** Absent = same as inputPerMTok. */
    cachedInputPerMTok: z.number().nonnegative().optional(),
    /** Reasoning models (gpt-5, o-series) reject a temperature; it is then not sent. */
    supportsTemperature: z.boolean().default(true),
    /** Tokens of input the model accepts; named in a context-length failure. */
    contextWindow: z.number().int().positive().optional(),
    /** The largest output cap the model accepts: a cut-off answer is re-asked with a doubled cap up to this. */
    maxOutputTokens: z.number().int().positive().optional(),
  })
  .strict();
export type ModelInfo = z.infer<typeof ModelInfo>;

export const LlmConfig = z
  .object({
    /** Model for every agent role without its own entry in `roles`. */
    defaultModel: ModelId,
    /** Agent role → model, e.g. { "author": "openai:gpt-5.1", "rubric-grader": "gemini:gemini-2.5-pro" }. */
    roles: z.record(z.string(), ModelId).default({}),
    /** Provider alias (the part before ':' in a model string) → endpoint. `scripted` is built in. */
    providers: z.record(ProviderAlias, ProviderConfig),
    /** Price table and capabilities, keyed by full model string (`openai:gpt-5.1`) or bare model name (`gpt-5.1`). */
    models: z.record(z.string(), ModelInfo).default({}),
    /** Re-asks after an answer that does not match its schema, before SchemaValidationError. */
    structuredRetries: z.number().int().min(0).max(10).default(3),
    /** Tool-call rounds per call; after the last one the model must answer without tools. */
    maxToolRounds: z.number().int().min(1).max(50).default(8),
    /**
     * Per HTTP call: the longest wait for a response's first byte, and the longest pause inside its body.
     * Well below LLM_ACTIVITY's startToClose (10 min), so a hung provider costs one timeout, not one attempt;
     * each call's timeout is also cut to what is left of the attempt.
     */
    requestTimeoutMs: z.number().int().positive().default(240_000),
    /** Output tokens assumed by the budget check when a request sets no maxOutputTokens. */
    outputTokensEstimate: z.number().int().positive().default(4096),
    /** Where `scripted:<name>` looks for `<name>.json` (relative to the repository root). */
    cassettesDir: z.string().default('data/cassettes'),
  })
  .strict()
  .refine((c) => !('scripted' in c.providers), { message: '`scripted` is a built-in provider and cannot be redefined', path: ['providers', 'scripted'] });
export type LlmConfig = z.infer<typeof LlmConfig>;

/** The longest run deadline (a year): a bound on a typo, not on real campaigns. */
export const MAX_DEADLINE_HOURS = 24 * 365;

/**
 * Default limits of one reproduction; null = unlimited. CLI flags --budget-tokens/--budget-usd and
 * --deadline-hours override them. `deadlineHours`: from the run's start, how long its LLM calls keep
 * retrying a provider that is down or throttling — the run's only limit on a provider outage.
 */
export const BudgetConfig = z
  .object({
    maxTokens: z.number().int().positive().nullable().default(null),
    maxUsd: z.number().positive().nullable().default(null),
    deadlineHours: z.number().positive().max(MAX_DEADLINE_HOURS).default(24),
  })
  .strict();
export type BudgetConfig = z.infer<typeof BudgetConfig>;

/** The most CPU time one sandbox run may be given (24 h, the sandbox request's own maximum). */
export const MAX_RUN_TIMEOUT_SECONDS = 24 * 3600;

/** Sandbox runs of a reproduction. `reproduce --run-timeout` overrides it for one run. */
export const SandboxConfig = z
  .object({
    /**
     * The script's time limit in CPU seconds (all its processes together; a busy host does not use it
     * up). Unit tests get a tenth of it (activities/pipeline/job-limits.ts). Wall clock is only a
     * guard: max(3×, +30 min), an infrastructure fault when it expires (runners/sandbox/limits.ts).
     */
    runTimeoutSeconds: z.number().int().positive().max(MAX_RUN_TIMEOUT_SECONDS).default(300),
  })
  .strict();

/** Where a bucket-backed artifact store is (issue 29); credentials come from the AWS environment. */
export const S3ArtifactsConfig = z
  .object({
    bucket: z.string().min(3, 'a bucket name (3 to 63 characters)').max(63),
    /** Key prefix inside the bucket ('' = its root), e.g. "physvec/prod". */
    prefix: z.string().default(''),
    /** S3-compatible endpoint (MinIO, Ceph RGW); absent = AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS S3. */
    endpoint: z.string().url().optional(),
    /** Absent = AWS_REGION, else us-east-1 (what most S3-compatible servers accept). */
    region: z.string().optional(),
    /** bucket-in-path URLs; absent = true when an endpoint is set (MinIO and most servers need it). */
    forcePathStyle: z.boolean().optional(),
  })
  .strict();
export type S3ArtifactsConfig = z.infer<typeof S3ArtifactsConfig>;

/** The artifact store: `local` = <state>/artifacts (default), `s3` = the bucket under `s3`. PHYSVEC_ARTIFACTS_URL=s3://bucket/prefix overrides. */
export const ArtifactsConfig = z
  .object({
    backend: z.enum(['local', 's3']).default('local'),
    s3: S3ArtifactsConfig.optional(),
  })
  .strict()
  .refine((c) => c.backend !== 's3' || c.s3 !== undefined, { message: 'backend "s3" needs an "s3" section with at least a bucket', path: ['s3'] });
export type ArtifactsConfig = z.infer<typeof ArtifactsConfig>;

/**
 * The results store (issue 29.6): `sqlite` = <state>/results.sqlite (one host), `s3` = keyed objects in
 * the bucket under `s3`. Absent: the bucket of the artifact store (under its prefix's results/) when
 * that is a bucket, else SQLite. PHYSVEC_RESULTS_URL (s3://bucket/prefix or sqlite) overrides.
 */
export const ResultsConfig = z
  .object({
    backend: z.enum(['sqlite', 's3']),
    s3: S3ArtifactsConfig.optional(),
  })
  .strict()
  .refine((c) => c.backend !== 's3' || c.s3 !== undefined, { message: 'backend "s3" needs an "s3" section with at least a bucket', path: ['s3'] });
export type ResultsConfig = z.infer<typeof ResultsConfig>;

export const PhysvecConfig = z
  .object({
    llm: LlmConfig,
    budget: BudgetConfig.default({ maxTokens: null, maxUsd: null, deadlineHours: 24 }),
    sandbox: SandboxConfig.default({ runTimeoutSeconds: 300 }),
    artifacts: ArtifactsConfig.optional(),
    results: ResultsConfig.optional(),
  })
  .loose();
export type PhysvecConfig = z.infer<typeof PhysvecConfig>;
