// Token counts for a response that came without usage (some OpenAI-compatible servers, a Gemini
// response without usageMetadata): counted with a real BPE tokenizer (gpt-tokenizer: pure JS, its
// encodings bundled, nothing downloaded), never guessed from characters and never 0. Still an
// estimate — the provider's own count is the bill — so the call is marked `estimated`.
//  - OpenAI models: their own encoding — o200k_base for gpt-4o, gpt-4.1, gpt-4.5, gpt-5, the o-series
//    and gpt-oss; cl100k_base for gpt-4 / gpt-3.5 and the embeddings before them.
//  - Gemini and every other family (Claude, Llama, Qwen… behind an OpenAI-compatible endpoint):
//    o200k_base as an approximation. Their tokenizers are not published as a JS library (Gemini's is
//    a 256k-entry SentencePiece model behind the countTokens API, a network call per estimate);
//    o200k_base is the closest public vocabulary in size and counts code, JSON and mathematics far
//    closer than characters/4.
// The encodings load lazily (~0.3 s, once per worker) on the first response without usage.
import { createRequire } from 'node:module';

type Encoding = 'o200k_base' | 'cl100k_base';

interface Tokenizer {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

const O200K = /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4|codex)/;
const CL100K = /^(gpt-4|gpt-3\.5|text-embedding-(3|ada))/;

/** Which encoding counts a model's tokens, and whether it is the model's own (exact) or an approximation. */
export function encodingFor(model: string): { encoding: Encoding; own: boolean } {
  // "openai:gpt-4o", "openrouter:openai/gpt-4o-mini": the model name is what follows the last ':' or '/'.
  const name = model.slice(Math.max(model.lastIndexOf(':'), model.lastIndexOf('/')) + 1).toLowerCase();
  if (O200K.test(name)) return { encoding: 'o200k_base', own: true };
  if (CL100K.test(name)) return { encoding: 'cl100k_base', own: true };
  return { encoding: 'o200k_base', own: false };
}

const loaded = new Map<Encoding, Tokenizer>();
const requireCjs = createRequire(import.meta.url);

function tokenizer(encoding: Encoding): Tokenizer {
  let t = loaded.get(encoding);
  if (!t) {
    t = requireCjs(`gpt-tokenizer/cjs/encoding/${encoding}`) as Tokenizer;
    loaded.set(encoding, t);
  }
  return t;
}

/** Special-token text in a prompt or answer ("<|endoftext|>") is counted as text, not refused. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** Tokens of `texts` under the model's encoding (see encodingFor). */
export function countTokens(model: string, texts: readonly string[]): number {
  const t = tokenizer(encodingFor(model).encoding);
  return texts.reduce((n, s) => n + (s ? t.countTokens(s, AS_TEXT) : 0), 0);
}

/** Per-message framing of a chat prompt (role and separators), as OpenAI documents for its chat models. */
export const TOKENS_PER_MESSAGE = 4;
