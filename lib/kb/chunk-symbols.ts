// One API symbol (module, class, function, method, property) becomes one chunk, or several when its
// docstring is long; every piece carries the symbol's name and signature so it stands on its own.
import type { IntrospectSymbolRecord, KbChunk, KbToolchain } from '../../schemas/kb.js';
import { splitDocument, splitSummary } from './split-text.js';

export type ChunkDraft = Omit<KbChunk, 'id'>;

export function chunkSymbol(rec: IntrospectSymbolRecord, toolchain: KbToolchain): ChunkDraft[] {
  // The summary is its own field; the pieces' bodies are what follows it.
  const { summary, rest } = splitSummary(rec.doc);
  const pieces = splitDocument(rest);
  const base = {
    toolchain,
    kind: rec.kind,
    qualifiedName: rec.qualname,
    aliases: rec.aliases,
    signature: rec.signature,
    summary,
    source: rec.module,
  };
  if (pieces.length === 0) {
    return [{ ...base, body: '', members: rec.members, section: '', part: 0, parts: 1 }];
  }
  return pieces.map((p, i) => ({
    ...base,
    body: p.text,
    // Member names help find the class itself; repeating them on every piece would only add noise.
    members: i === 0 ? rec.members : [],
    section: p.section,
    part: i,
    parts: pieces.length,
  }));
}
