// Querying the knowledge base: load once per process (re-read only when a new build replaces it),
// rank with BM25, keep one hit per symbol, and cut a snippet around the words asked about.
import { RetrieveArgs, type KbChunk, type KbHit } from '../../schemas/kb.js';
import { badInputFromZod } from '../errors.js';
import { buildKbInChild } from './build-in-child.js';
import { searchPlan, type SearchTuning } from './index-options.js';
import { kbDir } from './paths.js';
import { analyseQuery } from './query.js';
import { loadKbFromDisk, readManifest, type LoadedKb } from './store.js';
import { processTerm, tokenize } from './tokenize.js';

export class KbNotBuiltError extends Error {
  override name = 'KbNotBuiltError';
  constructor(dir: string) {
    super(`the knowledge base has not been built yet (nothing in ${dir}); run \`physvec kb build\``);
  }
}

export interface LoadKbOptions {
  dir?: string;
  /** Build it when missing (takes ~20-40 s once, in a child process: see build-in-child.ts) instead of failing. */
  autoBuild?: boolean;
}

const cache = new Map<string, Promise<LoadedKb>>();

export async function loadKb(opts: LoadKbOptions = {}): Promise<LoadedKb> {
  const dir = opts.dir ?? kbDir();
  let manifest = await readManifest(dir);
  if (!manifest) {
    if (!opts.autoBuild) throw new KbNotBuiltError(dir);
    await buildKbInChild({ dir });
    manifest = await readManifest(dir);
    if (!manifest) throw new KbNotBuiltError(dir);
  }
  const key = `${dir}\0${manifest.buildId}`;
  let loaded = cache.get(key);
  if (!loaded) {
    for (const k of cache.keys()) if (k.startsWith(`${dir}\0`)) cache.delete(k);
    loaded = loadKbFromDisk(manifest, dir);
    cache.set(key, loaded);
    loaded.catch(() => cache.delete(key));
  }
  return loaded;
}

export function parseRetrieveArgs(args: unknown, where = 'retrieve arguments'): RetrieveArgs {
  const parsed = RetrieveArgs.safeParse(args);
  if (!parsed.success) throw badInputFromZod(parsed.error, where);
  return parsed.data;
}

export function queryTerms(query: string): string[] {
  return [...new Set(tokenize(query).map(processTerm).filter((t): t is string => !!t))];
}

const SNIPPET_CHARS = 240;

/** A short window of the chunk's text around the first query term it contains (else its summary). */
export function snippetFor(chunk: KbChunk, terms: readonly string[]): string {
  const text = (chunk.body || chunk.summary).replace(/\s+/g, ' ').trim();
  const lower = text.toLowerCase();
  let at = -1;
  for (const t of terms) {
    const i = lower.indexOf(t);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  if (at < 0 || (chunk.summary && chunk.part === 0 && at < SNIPPET_CHARS)) {
    const s = chunk.summary || text;
    return s.length <= SNIPPET_CHARS ? s : s.slice(0, SNIPPET_CHARS - 1).trimEnd() + '…';
  }
  const start = Math.max(0, at - 60);
  const window = text.slice(start, start + SNIPPET_CHARS).trim();
  return `${start > 0 ? '…' : ''}${window}${start + SNIPPET_CHARS < text.length ? '…' : ''}`;
}

/** Ranks `kb` for the query; one hit per qualified name (its best-scoring piece). */
export function searchLoaded(kb: LoadedKb, args: RetrieveArgs, tuning?: SearchTuning): KbHit[] {
  const filter = args.toolchain
    ? (c: KbChunk) => c.toolchain === args.toolchain || c.toolchain === 'general'
    : undefined;
  const analysed = analyseQuery(args.query);
  const plan = searchPlan(kb.chunks, analysed, filter, tuning);
  const results = kb.index.search(plan.query, plan.options);
  const terms = queryTerms(analysed.text);
  const hits: KbHit[] = [];
  const seen = new Set<string>();
  for (const r of results) {
    const chunk = kb.chunks[r.id as number];
    if (!chunk || seen.has(chunk.qualifiedName)) continue;
    seen.add(chunk.qualifiedName);
    hits.push({
      rank: hits.length + 1,
      score: Math.round(r.score * 100) / 100,
      qualifiedName: chunk.qualifiedName,
      toolchain: chunk.toolchain,
      kind: chunk.kind,
      signature: chunk.signature,
      aliases: chunk.aliases,
      snippet: snippetFor(chunk, terms),
      chunkId: chunk.id,
    });
    if (hits.length >= args.k) break;
  }
  return hits;
}
