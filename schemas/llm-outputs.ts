// Named schemas for structured LLM answers. A zod object cannot travel in a Temporal payload, so a
// request names its schema (`outputSchema: 'verdict'`) and the activity looks it up here. Add a
// schema by adding an entry; workflows get the answer's type with `LlmOutput<'name'>`.
// Prefer plain objects at the root (both providers require one) and .describe() fields: the
// descriptions reach the model through the JSON schema.
import { z } from 'zod';
import { agentOutputSchemas } from './agent-outputs.js';

export const llmOutputSchemas = {
  /** The PhysVEC agents' answers (author, verifiers, repairs). */
  ...agentOutputSchemas,
  /** A free-text answer wrapped in an object, for callers that want JSON mode without a real structure. */
  answer: z.object({
    answer: z.string().describe('the answer'),
  }),
  /** A judgement with its reason, the shape of the paper's unit-test and limiting-case judges. */
  verdict: z.object({
    verdict: z.enum(['correct', 'wrong', 'undetermined']).describe('the judgement'),
    reason: z.string().describe('why, citing the evidence'),
  }),
  /** A list of short strings, e.g. retrieval queries or repair suggestions. */
  'string-list': z.object({
    items: z.array(z.string()).describe('the list, one item per entry'),
  }),
} satisfies Record<string, z.ZodType>;

export type LlmOutputName = keyof typeof llmOutputSchemas;
export type LlmOutput<N extends LlmOutputName> = z.infer<(typeof llmOutputSchemas)[N]>;

export function isLlmOutputName(name: string): name is LlmOutputName {
  return Object.prototype.hasOwnProperty.call(llmOutputSchemas, name);
}

/** The schema of that name, or an error that lists the known names. */
export function llmOutputSchema(name: string): z.ZodType {
  if (!isLlmOutputName(name)) {
    throw new Error(`unknown outputSchema "${name}"; known: ${Object.keys(llmOutputSchemas).join(', ')} (add it to schemas/llm-outputs.ts)`);
  }
  return llmOutputSchemas[name];
}
