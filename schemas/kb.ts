// The knowledge base's data at every boundary: what the introspection script writes, what is stored
// on disk (chunks, manifest), the labelled retrieval set, and the agents' retrieve tool arguments.
import { z } from 'zod';

export const KB_TOOLCHAINS = ['tenpy', 'netket', 'qiskit', 'pyscf', 'itensors', 'orca', 'general'] as const;
export const KbToolchain = z.enum(KB_TOOLCHAINS);
export type KbToolchain = z.infer<typeof KbToolchain>;

/** Spellings an agent or a user may reasonably write for a toolchain. */
const TOOLCHAIN_SYNONYMS: Record<string, KbToolchain> = {
  'physics-tenpy': 'tenpy',
  'qiskit-aer': 'qiskit',
  qiskit_aer: 'qiskit',
  itensor: 'itensors',
  itensormps: 'itensors',
  'itensors.jl': 'itensors',
  julia: 'itensors',
};

/** A toolchain name, case-insensitive and tolerant of package spellings ("qiskit_aer", "physics-tenpy"). */
export const KbToolchainInput = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const key = v.trim().toLowerCase();
  return TOOLCHAIN_SYNONYMS[key] ?? key;
}, KbToolchain);

// ---- introspection records (runners/kb/introspect.py, one JSON object per line) ----
export const IntrospectPackageRecord = z.object({
  type: z.literal('package'),
  toolchain: z.string(),
  package: z.string(),
  version: z.string().nullable(),
  error: z.string().nullable().optional(),
});

export const SymbolKind = z.enum(['module', 'class', 'function', 'method', 'property']);
export type SymbolKind = z.infer<typeof SymbolKind>;

export const IntrospectSymbolRecord = z.object({
  type: z.literal('symbol'),
  toolchain: z.string(),
  kind: SymbolKind,
  qualname: z.string().min(1),
  aliases: z.array(z.string()).default([]),
  module: z.string().default(''),
  signature: z.string().default(''),
  doc: z.string().default(''),
  members: z.array(z.string()).default([]),
});
export type IntrospectSymbolRecord = z.infer<typeof IntrospectSymbolRecord>;

export const IntrospectSummaryRecord = z.object({
  type: z.literal('summary'),
  toolchain: z.string(),
  modules: z.number().int(),
  failed_modules: z.number().int(),
  symbols: z.number().int(),
  truncated: z.boolean(),
  seconds: z.number(),
});

export const IntrospectRecord = z.discriminatedUnion('type', [
  IntrospectPackageRecord,
  IntrospectSymbolRecord,
  IntrospectSummaryRecord,
]);
export type IntrospectRecord = z.infer<typeof IntrospectRecord>;

export const IntrospectVersions = z.record(z.string(), z.string().nullable());

// ---- what is stored on disk ----
export const ChunkKind = z.enum(['module', 'class', 'function', 'method', 'property', 'manual']);
export type ChunkKind = z.infer<typeof ChunkKind>;

export const KbChunk = z.object({
  id: z.number().int().nonnegative(),
  toolchain: KbToolchain,
  kind: ChunkKind,
  /** Import path for API symbols (`tenpy.networks.mps.MPS.expectation_value`); `manual:<file>#<heading>` for manuals. */
  qualifiedName: z.string().min(1),
  aliases: z.array(z.string()),
  signature: z.string(),
  /** First paragraph of the docstring / section. */
  summary: z.string(),
  body: z.string(),
  /** Public members of a class (names only), so "MPS correlation" can find the class too. */
  members: z.array(z.string()),
  /** Module the symbol is defined in, or the manual file's path. */
  source: z.string(),
  /** Section heading for split docstrings and manual sections ('' for the first part). */
  section: z.string(),
  part: z.number().int().nonnegative(),
  parts: z.number().int().positive(),
});
export type KbChunk = z.infer<typeof KbChunk>;

export const KbToolchainManifest = z.object({
  packages: z.record(z.string(), z.string().nullable()),
  available: z.boolean(),
  modules: z.number().int(),
  failedModules: z.number().int(),
  symbols: z.number().int(),
  truncated: z.boolean(),
  introspectSeconds: z.number(),
  /** Records came from the introspection cache (same versions and script) rather than a fresh run. */
  cached: z.boolean(),
  error: z.string().optional(),
});

export const KbManifest = z.object({
  formatVersion: z.number().int(),
  /** Hash of everything the corpus is derived from; equal fingerprint = nothing to rebuild. */
  fingerprint: z.string(),
  builtAt: z.string(),
  buildMs: z.number(),
  indexMs: z.number(),
  runner: z.enum(['sandbox', 'execa']),
  toolchains: z.record(z.string(), KbToolchainManifest),
  manuals: z.object({ files: z.array(z.string()), hash: z.string() }),
  chunks: z.object({ total: z.number().int(), byToolchain: z.record(z.string(), z.number().int()) }),
});
export type KbManifest = z.infer<typeof KbManifest>;

// ---- labelled retrieval set (data/kb/queries.json) ----
export const KbLabelledQuery = z.object({
  id: z.string().min(1),
  toolchain: KbToolchain,
  query: z.string().min(3),
  /** Acceptable answers: qualified names; a hit matches when its name or one of its aliases equals one. */
  targets: z.array(z.string().min(1)).min(1),
});
export type KbLabelledQuery = z.infer<typeof KbLabelledQuery>;

export const KbQuerySet = z.object({
  description: z.string(),
  queries: z.array(KbLabelledQuery).min(1),
});
export type KbQuerySet = z.infer<typeof KbQuerySet>;

// ---- agents' tool and the CLI ----
export const RetrieveArgs = z
  .object({
    query: z.string().trim().min(2).max(2000).describe('What to look up: an API question, a symbol name, or an error message.'),
    toolchain: KbToolchainInput.optional().describe(
      'Restrict to one toolchain: tenpy, netket, qiskit (incl. qiskit-aer), pyscf, itensors, orca. Omit to search all.',
    ),
    k: z.number().int().min(1).max(20).default(5).describe('How many entries to return (default 5).'),
  })
  .strict();
export type RetrieveArgs = z.infer<typeof RetrieveArgs>;
export type RetrieveArgsInput = z.input<typeof RetrieveArgs>;

export const KbHit = z.object({
  rank: z.number().int().positive(),
  score: z.number(),
  qualifiedName: z.string(),
  toolchain: KbToolchain,
  kind: ChunkKind,
  signature: z.string(),
  aliases: z.array(z.string()),
  snippet: z.string(),
  chunkId: z.number().int(),
});
export type KbHit = z.infer<typeof KbHit>;
