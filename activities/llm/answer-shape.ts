// Applies the size rule of lib/llm/limits.ts: what of the answer travels inline in LlmResult,
// and what goes to the artifact store.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import { INLINE_PARSED_BYTES, INLINE_TEXT_BYTES, PREVIEW_CHARS } from '../../lib/llm/limits.js';

export interface ShapedAnswer {
  text: string;
  textRef?: ArtifactRef;
  textTruncated: boolean;
  parsed?: unknown;
  parsedRef?: ArtifactRef;
}

export async function shapeAnswer(store: ArtifactStore, text: string, structured: boolean, parsed: unknown, baseName: string): Promise<ShapedAnswer> {
  const out: ShapedAnswer = { text, textTruncated: false };
  const textFits = structured ? text.length <= PREVIEW_CHARS : Buffer.byteLength(text, 'utf8') <= INLINE_TEXT_BYTES;
  if (!textFits) {
    out.text = text.slice(0, PREVIEW_CHARS);
    out.textTruncated = true;
    out.textRef = await store.put(text, { name: `${baseName}.txt`, mediaType: 'text/plain' });
  }
  if (structured) {
    if (Buffer.byteLength(JSON.stringify(parsed) ?? '', 'utf8') <= INLINE_PARSED_BYTES) out.parsed = parsed;
    else out.parsedRef = await store.putJson(parsed, `${baseName}.json`);
  }
  return out;
}
