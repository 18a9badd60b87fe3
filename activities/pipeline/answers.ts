// Read a structured LLM answer that may have been moved to the artifact store because of its size.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import { BadInputError } from '../../lib/errors.js';
import type { z } from 'zod';

export interface AnswerRef {
  parsed?: unknown;
  parsedRef?: ArtifactRef;
}

export async function readAnswer<T>(store: ArtifactStore, answer: AnswerRef, schema: z.ZodType<T>, what: string): Promise<T> {
  const value = answer.parsed !== undefined ? answer.parsed : answer.parsedRef ? await store.getJson(answer.parsedRef) : undefined;
  const r = schema.safeParse(value);
  if (!r.success) throw new BadInputError(`${what}: the model's answer does not have the expected shape: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}
