// What an agent reads back from `retrieve`: the top entries as compact text, each with the import path,
// the call signature and the part of the docstring that matched, trimmed so k=5 stays a few KB of prompt.
import type { KbChunk, KbHit, RetrieveArgsInput } from '../../schemas/kb.js';
import { displayName } from './index-options.js';
import { loadKb, parseRetrieveArgs, searchLoaded, type LoadKbOptions } from './search.js';
import type { LoadedKb } from './store.js';

const DOC_CHARS_PER_HIT = 900;

function trimDoc(text: string, max: number): string {
  const t = text.replace(/\n{3,}/g, '\n\n').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const lastBreak = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf('. '));
  return `${(lastBreak > max * 0.6 ? cut.slice(0, lastBreak + 1) : cut).trimEnd()} […]`;
}

function callSignature(chunk: KbChunk): string {
  if (!chunk.signature) return '';
  return `${displayName(chunk).split('.').at(-1)}${chunk.signature}`;
}

export function formatHit(hit: KbHit, chunk: KbChunk): string {
  const lines = [`[${hit.rank}] ${hit.qualifiedName}  (${hit.toolchain}, ${hit.kind}${chunk.parts > 1 ? `, part ${chunk.part + 1}/${chunk.parts}${chunk.section ? `: ${chunk.section}` : ''}` : ''})`];
  const sig = callSignature(chunk);
  if (sig) lines.push(`signature: ${sig}`);
  if (chunk.aliases.length) lines.push(`also importable as: ${chunk.aliases.slice(0, 3).join(', ')}`);
  if (chunk.kind === 'class' && chunk.members.length) lines.push(`members: ${chunk.members.slice(0, 25).join(', ')}`);
  const doc = [chunk.summary, chunk.body].filter(Boolean).join('\n\n');
  lines.push(doc ? trimDoc(doc, DOC_CHARS_PER_HIT) : '(no docstring)');
  return lines.join('\n');
}

export function formatRetrieval(kb: LoadedKb, query: string, hits: KbHit[], toolchain?: string): string {
  const scope = toolchain ? ` in ${toolchain}` : '';
  if (hits.length === 0) {
    return `No knowledge-base entries match "${query}"${scope}. Try the class or function name, or fewer, more specific words.`;
  }
  const header = `Knowledge base: top ${hits.length} for "${query}"${scope}`;
  return [header, ...hits.map((h) => formatHit(h, kb.chunks[h.chunkId]!))].join('\n\n');
}

/** The agents' retrieval: top-k documentation entries for a query as one compact text. */
export async function retrieve(args: RetrieveArgsInput, opts: LoadKbOptions = {}): Promise<string> {
  parseRetrieveArgs(args); // bad arguments fail before the index is loaded
  return retrieveFrom(await loadKb(opts), args);
}

/** Retrieval from a given build (a run's pinned one: lib/kb/pinned.ts). */
export function retrieveFrom(kb: LoadedKb, args: RetrieveArgsInput): string {
  const parsed = parseRetrieveArgs(args);
  return formatRetrieval(kb, parsed.query, searchLoaded(kb, parsed), parsed.toolchain);
}
