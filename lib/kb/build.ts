// `kb build`: introspect the installed toolchains, read the manuals, chunk, index, save. Skipped when
// nothing the corpus derives from has changed (package versions, manual files, the code that shapes it).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { repoRoot } from '../paths.js';
import { IntrospectRecord, type IntrospectSymbolRecord, type KbChunk, type KbManifest } from '../../schemas/kb.js';
import { chunkSymbol, type ChunkDraft } from './chunk-symbols.js';
import { indexOptions } from './index-options.js';
import { distributionVersions, introspectToolchain, type IntrospectRunner, type NamedIntrospectRunner } from './introspect.js';
import { chunkManuals, hashManuals, listManualFiles } from './manuals.js';
import { introspectFiles, kbDir, manualDirs } from './paths.js';
import { INTROSPECT_LIMITS, PYTHON_SOURCES, distributionOf, type PythonSource } from './sources.js';
import { buildExists, readManifest, saveKb, type StoredManifest } from './store.js';
import { mapLimit } from '../toolchains/map-limit.js';

export const KB_FORMAT_VERSION = 1;

/** The documentation extractor runners/kb/static_docs.py reads signatures and docstrings with. */
const DOC_EXTRACTOR = 'griffe';

/** Source files whose change changes the corpus or its index; their content is part of the fingerprint. */
const CORPUS_CODE = [
  ...introspectFiles,
  ...['tokenize', 'split-text', 'chunk-symbols', 'manuals', 'html-text', 'index-options', 'sources', 'build'].map((f) =>
    path.join(repoRoot, 'lib', 'kb', `${f}.ts`),
  ),
];

export interface BuildKbOptions {
  force?: boolean;
  /** Defaults to the four Python toolchains; tests may narrow it. */
  sources?: PythonSource[];
  manualDirs?: string[];
  dir?: string;
  /** How introspect.py runs: runners/kb/introspect-runners.ts (the sandbox), or a fake in tests. */
  runner: NamedIntrospectRunner;
  /** At most this many introspections at once (each is one Python process). */
  concurrency?: number;
  onProgress?: (message: string) => void;
}

export interface BuildKbOutcome {
  skipped: boolean;
  reason: string;
  manifest: KbManifest;
}

async function hashFiles(files: string[]): Promise<string> {
  const h = createHash('sha256');
  for (const f of files) h.update(f).update(await readFile(f));
  return h.digest('hex');
}

function sha(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

interface ToolchainCorpus {
  source: PythonSource;
  entry: KbManifest['toolchains'][string];
  symbols: IntrospectSymbolRecord[];
}

// Introspection output is cached per toolchain under its versions and the script's hash, so adding a
// manual re-indexes in seconds instead of re-importing four packages.
async function introspectWithCache(
  source: PythonSource,
  versions: Record<string, string | null>,
  cacheKey: string,
  opts: { force: boolean; runner: IntrospectRunner; dir: string },
): Promise<ToolchainCorpus> {
  const packages = Object.fromEntries(source.packages.map((p) => [distributionOf(p), versions[distributionOf(p)] ?? null]));
  const empty = { packages, modules: 0, failedModules: 0, symbols: 0, truncated: false, introspectSeconds: 0, cached: false };
  if (Object.values(packages).every((v) => v === null)) {
    return { source, entry: { ...empty, available: false, error: 'not installed' }, symbols: [] };
  }
  const cacheFile = path.join(opts.dir, 'introspect', `${source.toolchain}-${cacheKey.slice(0, 16)}.jsonl`);
  let lines: string | undefined;
  if (!opts.force) lines = await readFile(cacheFile, 'utf8').catch(() => undefined);
  let error: string | undefined;
  let records: IntrospectRecord[];
  if (lines !== undefined) {
    records = lines.split('\n').filter(Boolean).map((l) => IntrospectRecord.parse(JSON.parse(l)));
  } else {
    const outcome = await introspectToolchain(source.toolchain, source.packages, opts.runner);
    records = outcome.records;
    if (outcome.error) error = outcome.error;
    if (outcome.badLines) error = `${error ? `${error}; ` : ''}${outcome.badLines} unreadable record lines`;
    if (!outcome.error && records.length) {
      await mkdir(path.dirname(cacheFile), { recursive: true });
      await writeFile(cacheFile, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    }
  }
  const summary = records.find((r) => r.type === 'summary');
  const symbols = records.filter((r): r is IntrospectSymbolRecord => r.type === 'symbol');
  return {
    source,
    symbols,
    entry: {
      packages,
      available: symbols.length > 0,
      modules: summary?.modules ?? 0,
      failedModules: summary?.failed_modules ?? 0,
      symbols: symbols.length,
      truncated: summary?.truncated ?? !summary,
      introspectSeconds: summary?.seconds ?? 0,
      cached: lines !== undefined,
      ...(error ? { error: error.slice(0, 2000) } : {}),
    },
  };
}

const inFlight = new Map<string, Promise<BuildKbOutcome>>();

/** Builds (or confirms) the knowledge base. Concurrent calls for one directory in one process share one build. */
export function buildKb(opts: BuildKbOptions): Promise<BuildKbOutcome> {
  const dir = opts.dir ?? kbDir();
  let running = inFlight.get(dir);
  if (!running) {
    running = doBuild({ ...opts, dir }).finally(() => inFlight.delete(dir));
    inFlight.set(dir, running);
  }
  return running;
}

async function doBuild(opts: BuildKbOptions): Promise<BuildKbOutcome> {
  const started = performance.now();
  const dir = opts.dir ?? kbDir();
  const sources = opts.sources ?? PYTHON_SOURCES;
  const runner = opts.runner.run;
  const progress = opts.onProgress ?? (() => {});
  await mkdir(dir, { recursive: true });

  const dists = [...new Set(sources.flatMap((s) => s.packages.map(distributionOf)))];
  // The extractor's version shapes every signature and docstring, so it is part of what is fingerprinted.
  const versions = dists.length ? await distributionVersions([...dists, DOC_EXTRACTOR], runner) : {};
  const manualFiles = await listManualFiles(opts.manualDirs ?? manualDirs());
  const manualHash = await hashManuals(manualFiles);
  const codeHash = await hashFiles(CORPUS_CODE);
  const introspectKey = sha({ script: await hashFiles(introspectFiles), limits: INTROSPECT_LIMITS });
  const fingerprint = sha({ KB_FORMAT_VERSION, versions, sources, manualHash, codeHash });

  const previous = await readManifest(dir);
  if (!opts.force && previous?.fingerprint === fingerprint && (await buildExists(previous, dir))) {
    return { skipped: true, reason: 'package versions, manuals and corpus code unchanged since the last build', manifest: previous };
  }
  const reason = opts.force
    ? 'forced'
    : !previous
      ? 'no previous build'
      : describeChange(previous, versions, manualHash);

  const corpora = await mapLimit(sources, opts.concurrency ?? 2, async (source) => {
    const key = sha({
      introspectKey,
      source,
      versions: source.packages.map((p) => versions[distributionOf(p)] ?? null),
      extractor: versions[DOC_EXTRACTOR] ?? null,
    });
    const t0 = performance.now();
    const c = await introspectWithCache(source, versions, key, { force: !!opts.force, runner, dir });
    progress(`${source.toolchain}: ${c.entry.available ? `${c.symbols.length} symbols` : 'unavailable'} (${Math.round(performance.now() - t0)} ms)`);
    return c;
  });

  const drafts: ChunkDraft[] = [];
  for (const c of corpora) for (const s of c.symbols) drafts.push(...chunkSymbol(s, c.source.toolchain));
  drafts.push(...(await chunkManuals(manualFiles)));
  const chunks: KbChunk[] = drafts.map((d, id) => ({ ...d, id }));

  const t0 = performance.now();
  const index = new MiniSearch<KbChunk>(indexOptions());
  index.addAll(chunks);
  const indexMs = Math.round(performance.now() - t0);
  progress(`indexed ${chunks.length} chunks in ${indexMs} ms`);

  const byToolchain: Record<string, number> = {};
  for (const c of chunks) byToolchain[c.toolchain] = (byToolchain[c.toolchain] ?? 0) + 1;
  const manifest: StoredManifest = {
    formatVersion: KB_FORMAT_VERSION,
    buildId: `build-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`,
    fingerprint,
    builtAt: new Date().toISOString(),
    buildMs: 0,
    indexMs,
    runner: opts.runner.kind,
    toolchains: Object.fromEntries(corpora.map((c) => [c.source.toolchain, c.entry])),
    manuals: { files: manualFiles.map((f) => f.abs), hash: manualHash },
    chunks: { total: chunks.length, byToolchain },
  };
  manifest.buildMs = Math.round(performance.now() - started);
  await saveKb(manifest, chunks, index, dir);
  return { skipped: false, reason, manifest };
}

function describeChange(previous: KbManifest, versions: Record<string, string | null>, manualHash: string): string {
  const changes: string[] = [];
  for (const entry of Object.values(previous.toolchains)) {
    for (const [dist, v] of Object.entries(entry.packages)) {
      if (dist in versions && versions[dist] !== v) changes.push(`${dist} ${v ?? 'absent'} → ${versions[dist] ?? 'absent'}`);
    }
  }
  if (previous.manuals.hash !== manualHash) changes.push('manual files changed');
  return changes.length ? changes.join(', ') : 'toolchain set or corpus code changed';
}
