// What an activity needs of an LLM answer: the parsed object, or its artifact when it was too big
// for the workflow history (see lib/llm/limits.ts).
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { LlmResult } from '../../schemas/llm.js';

export function answerOf(r: LlmResult): { parsed?: unknown; parsedRef?: ArtifactRef } {
  return { parsed: r.parsed, parsedRef: r.parsedRef };
}
