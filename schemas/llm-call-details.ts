// What an LLM call's heartbeat details carry (activities/llm/attempt-ledger.ts writes them): each
// attempt's usage, which call it is, and since when its provider has been failing. A schema of its
// own so `physvec status` (cli/runs/live-llm-calls.ts) reads them without loading the activity code.
import { z } from 'zod';
import { ArtifactRef } from './artifact.js';
import { LlmUsage } from './llm.js';

export const AttemptRecord = z.object({ attempt: z.number().int().positive(), usage: LlmUsage, exchangeRef: ArtifactRef.optional() });
export type AttemptRecord = z.infer<typeof AttemptRecord>;

/**
 * `call` and `unavailableSince`: which call this is, and since when its provider has been failing
 * transiently (set by the first failed attempt, carried by each later one until the call succeeds),
 * so the status can say "provider unavailable for 4m10s".
 */
export const LlmCallDetails = z.object({ llmAttempts: z.array(AttemptRecord), call: z.string().optional(), unavailableSince: z.number().optional() });
export type LlmCallDetails = z.infer<typeof LlmCallDetails>;
