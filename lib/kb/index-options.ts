// How chunks are indexed and ranked (MiniSearch, BM25+). One place for fields, boosts and query
// expansion, shared by the build and every loader: an index must be read with the options it was written with.
import type { Options, Query, SearchOptions } from 'minisearch';
import type { KbChunk } from '../../schemas/kb.js';
import type { AnalysedQuery } from './query.js';
import { processTerm, tokenize } from './tokenize.js';

export const INDEX_FIELDS = ['name', 'qualifiedName', 'aliases', 'section', 'summary', 'signature', 'body', 'members'] as const;
export type IndexField = (typeof INDEX_FIELDS)[number];

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
      // The remaining fields (id, section, summary, signature, body) are strings and a number.
      return String((chunk as unknown as Record<string, string | number | undefined>)[field] ?? '');
  }
}

// A symbol's name is indexed three times (name, qualifiedName, aliases), so its combined weight (4.5)
// already outweighs the summary (2.5), which says what the symbol is for, and the body (1), which holds
// parameters and options; the signature carries argument names such as `chi_max`.
export const FIELD_BOOSTS: Record<IndexField, number> = {
  name: 3,
  qualifiedName: 1,
  aliases: 0.5,
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

const MODULE_WEIGHT = 0.75;

/**
 * Ranking adjustments that depend on the chunk, not the query: a symbol without documentation can only
 * match by name and is a weaker answer; a continuation piece of a long docstring is reached through its
 * first piece as often as on its own.
 */
export function documentWeight(chunk: KbChunk, moduleWeight = MODULE_WEIGHT): number {
  let w = 1;
  if (!chunk.summary && !chunk.body) w *= 0.6;
  if (chunk.part > 0) w *= 0.9;
  // A module is a container: when it and a class or function in it match alike, the callable is the answer.
  if (chunk.kind === 'module') w *= moduleWeight;
  return w;
}

/** A toolchain the question names (without a filter) outranks the others by this factor. */
const MENTIONED_TOOLCHAIN_BOOST = 2;
/** Weight of an acronym spelled by the question's phrases, matched against symbol names only. */
const ACRONYM_BOOST = 4;

/** Overrides for experiments (scripts/bench-kb.ts --sweep); production uses the defaults. */
export interface SearchTuning {
  boosts?: Partial<Record<IndexField, number>>;
  acronymBoost?: number;
  moduleWeight?: number;
}

export interface SearchPlan {
  query: Query;
  options: SearchOptions;
}

/** The MiniSearch query for an analysed question: its words over all fields, OR its acronyms over names. */
export function searchPlan(
  chunks: readonly KbChunk[],
  analysed: AnalysedQuery,
  filter?: (chunk: KbChunk) => boolean,
  tuning: SearchTuning = {},
): SearchPlan {
  const preferred = new Set<string>(analysed.mentioned);
  const options: SearchOptions = {
    boost: { ...FIELD_BOOSTS, ...tuning.boosts },
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
      const w = documentWeight(chunk, tuning.moduleWeight);
      return preferred.size && preferred.has(chunk.toolchain) ? w * MENTIONED_TOOLCHAIN_BOOST : w;
    },
    filter: filter ? (result) => filter(chunks[result.id as number]!) : undefined,
  };
  const query: Query = analysed.acronyms.length
    ? {
        combineWith: 'OR',
        queries: [
          analysed.text,
          { queries: analysed.acronyms, fields: ['name'], prefix: false, boost: { name: tuning.acronymBoost ?? ACRONYM_BOOST } },
        ],
      }
    : analysed.text;
  return { query, options };
}
