// How chunks are indexed and ranked (MiniSearch, BM25+). One place for fields, boosts and query
// expansion, shared by the build and every loader: an index must be read with the options it was written with.
import type { Options, Query, SearchOptions } from 'minisearch';
import type { KbChunk } from '../../schemas/kb.js';
import type { AnalysedQuery } from './query.js';
import { processTerm, tokenize } from './tokenize.js';

export const INDEX_FIELDS = ['name', 'qualifiedName', 'aliases', 'section', 'summary', 'signature', 'body', 'members'] as const;
type IndexField = (typeof INDEX_FIELDS)[number];

/** The symbol's own name: `expectation_value`; for members `MPS.expectation_value`; for manuals the section heading. */
export function displayName(chunk: Pick<KbChunk, 'kind' | 'qualifiedName' | 'section'>): string {
  if (chunk.kind === 'manual') return chunk.section;
  const parts = chunk.qualifiedName.split('.');
  return chunk.kind === 'method' || chunk.kind === 'property' ? parts.slice(-2).join('.') : parts.at(-1)!;
}

/** The package root adds nothing the toolchain tag does not say; indexing it makes "pyscf" match 6000 chunks. */
const TOOLCHAIN_ROOT = /^(tenpy|netket|qiskit|pyscf)\./;
const withoutRoot = (name: string) => name.replace(TOOLCHAIN_ROOT, '');

function extractField(chunk: KbChunk, field: string): string {
  switch (field as IndexField | 'id') {
    case 'name':
      // For members only the member's own name: the class is in qualifiedName, and counting it twice
      // would let every `FCIBase.*` method outrank `FCI` for "FCI energy".
      return chunk.kind === 'manual' ? chunk.section : chunk.qualifiedName.split('.').at(-1)!;
    case 'qualifiedName':
      return withoutRoot(chunk.qualifiedName);
    case 'aliases':
      return chunk.aliases.map(withoutRoot).join(' ');
    case 'members':
      return chunk.members.join(' ');
    default:
      return String((chunk as unknown as Record<string, unknown>)[field] ?? '');
  }
}

// Names weigh most: a question naming `chi_max` or "Trotter" is best answered by the symbol called so;
// the summary says what a symbol is for; the body holds parameters and options.
const BOOSTS: Record<IndexField, number> = {
  name: 6,
  qualifiedName: 2,
  aliases: 1,
  section: 1.5,
  summary: 2.5,
  signature: 1.5,
  body: 1,
  members: 0.5,
};

export function indexOptions(): Options<KbChunk> {
  return {
    idField: 'id',
    fields: [...INDEX_FIELDS],
    storeFields: [],
    extractField: extractField as Options<KbChunk>['extractField'],
    tokenize,
    processTerm,
  };
}

/**
 * Ranking adjustments that depend on the chunk, not the query: a symbol without documentation can only
 * match by name and is a weaker answer; a continuation piece of a long docstring is reached through its
 * first piece as often as on its own.
 */
export function documentWeight(chunk: KbChunk): number {
  let w = 1;
  if (!chunk.summary && !chunk.body) w *= 0.6;
  if (chunk.part > 0) w *= 0.9;
  // A module is a container: when it and a class or function in it match alike, the callable is the answer.
  if (chunk.kind === 'module') w *= 0.75;
  return w;
}

/** A toolchain the question names (without a filter) outranks the others by this factor. */
const MENTIONED_TOOLCHAIN_BOOST = 2;
/** Weight of an acronym spelled by the question's phrases, matched against symbol names only. */
const ACRONYM_BOOST = 4;

export interface SearchPlan {
  query: Query;
  options: SearchOptions;
}

/** The MiniSearch query for an analysed question: its words over all fields, OR its acronyms over names. */
export function searchPlan(
  chunks: readonly KbChunk[],
  analysed: AnalysedQuery,
  filter?: (chunk: KbChunk) => boolean,
): SearchPlan {
  const preferred = new Set<string>(analysed.mentioned);
  const options: SearchOptions = {
    boost: BOOSTS,
    combineWith: 'OR',
    tokenize,
    processTerm,
    // No prefix expansion: the stemmer already joins inflections, and prefixes of identifiers
    // ("transform" → transform_ci_for_orbital_rotation) counted the same word several times.
    prefix: false,
    fuzzy: false,
    boostDocument: (id) => {
      const chunk = chunks[id as number];
      if (!chunk) return 1;
      const w = documentWeight(chunk);
      return preferred.size && preferred.has(chunk.toolchain) ? w * MENTIONED_TOOLCHAIN_BOOST : w;
    },
    filter: filter ? (result) => filter(chunks[result.id as number]!) : undefined,
  };
  const query: Query = analysed.acronyms.length
    ? {
        combineWith: 'OR',
        queries: [
          analysed.text,
          { queries: analysed.acronyms, fields: ['name'], prefix: false, boost: { name: ACRONYM_BOOST } },
        ],
      }
    : analysed.text;
  return { query, options };
}
