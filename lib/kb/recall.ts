// Retrieval quality on the labelled set (data/kb/queries.json): recall@k is the fraction of queries
// with at least one acceptable target among the top k hits; latency is measured per query.
import { readFile } from 'node:fs/promises';
import { badInputFromZod } from '../errors.js';
import { KbQuerySet, type KbHit, type KbLabelledQuery } from '../../schemas/kb.js';
import { labelledQueriesFile } from './paths.js';
import type { SearchTuning } from './index-options.js';
import { searchLoaded } from './search.js';
import type { LoadedKb } from './store.js';

export async function loadLabelledQueries(file = labelledQueriesFile): Promise<KbQuerySet> {
  const parsed = KbQuerySet.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success) throw badInputFromZod(parsed.error, file);
  return parsed.data;
}

/**
 * Maps any import path of a symbol to the corpus's qualified name, also through the owning class:
 * `tenpy.networks.mps.MPS.expectation_value` → `tenpy.networks.MPS.expectation_value`. Labels are
 * written as users write imports; the corpus names each symbol once.
 */
export type Canonicalize = (name: string) => string;

export function canonicalizer(kb: LoadedKb): Canonicalize {
  const canonical = new Map<string, string>();
  for (const c of kb.chunks) {
    if (c.kind === 'method' || c.kind === 'property' || c.kind === 'manual') continue;
    canonical.set(c.qualifiedName, c.qualifiedName);
    for (const a of c.aliases) if (!canonical.has(a)) canonical.set(a, c.qualifiedName);
  }
  return (name) => {
    const segs = name.split('.');
    for (let i = segs.length; i > 0; i--) {
      const hit = canonical.get(segs.slice(0, i).join('.'));
      if (hit) return [hit, ...segs.slice(i)].join('.');
    }
    return name;
  };
}

export function hitAnswers(
  hit: Pick<KbHit, 'qualifiedName' | 'aliases'>,
  targets: readonly string[],
  canon: Canonicalize = (n) => n,
): boolean {
  const wanted = new Set(targets.map(canon));
  return [hit.qualifiedName, ...hit.aliases].some((n) => wanted.has(n) || wanted.has(canon(n)));
}

export interface QueryOutcome {
  id: string;
  query: string;
  /** 1-based rank of the first acceptable hit within the top k, or null. */
  firstRelevantRank: number | null;
  top: string[];
  ms: number;
}

export interface RecallReport {
  k: number;
  filtered: boolean;
  recall: number;
  mrr: number;
  medianMs: number;
  p95Ms: number;
  outcomes: QueryOutcome[];
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i]!;
}

/**
 * Runs every labelled query. `filtered` passes the query's toolchain, as an agent calling
 * `retrieve(query, toolchain)` does; unfiltered searches the whole corpus.
 */
export function evaluateRecall(kb: LoadedKb, queries: KbLabelledQuery[], k = 5, filtered = true, tuning?: SearchTuning): RecallReport {
  const canon = canonicalizer(kb);
  const outcomes: QueryOutcome[] = queries.map((q) => {
    const t0 = performance.now();
    const hits = searchLoaded(kb, { query: q.query, toolchain: filtered ? q.toolchain : undefined, k }, tuning);
    const ms = performance.now() - t0;
    const idx = hits.findIndex((h) => hitAnswers(h, q.targets, canon));
    return { id: q.id, query: q.query, firstRelevantRank: idx >= 0 ? idx + 1 : null, top: hits.map((h) => h.qualifiedName), ms };
  });
  const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const found = outcomes.filter((o) => o.firstRelevantRank !== null);
  return {
    k,
    filtered,
    recall: found.length / outcomes.length,
    mrr: found.reduce((s, o) => s + 1 / o.firstRelevantRank!, 0) / outcomes.length,
    medianMs: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
    outcomes,
  };
}

/** Targets that name nothing in the corpus (neither a qualified name nor an alias): a label that can never be hit. */
export function unreachableTargets(kb: LoadedKb, queries: KbLabelledQuery[]): { id: string; targets: string[] }[] {
  const canon = canonicalizer(kb);
  const names = new Set<string>();
  for (const c of kb.chunks) {
    names.add(c.qualifiedName);
    for (const a of c.aliases) names.add(canon(a));
  }
  return queries
    .map((q) => ({ id: q.id, targets: q.targets.filter((t) => !names.has(canon(t))) }))
    .filter((x) => x.targets.length > 0);
}
