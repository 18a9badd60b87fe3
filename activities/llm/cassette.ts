// Cassettes of the scripted model: where `scripted:<spec>` points, loading with validation, and
// matching a call by (role, stage, iteration, seq) — never by prompt text, so prompts may evolve.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import { pinnedRead } from '../../lib/artifacts/run-pins.js';
import path from 'node:path';
import { describeZodError } from '../../lib/errors.js';
import { repoRoot } from '../../lib/paths.js';
import { Cassette, type CassetteEntry, type LlmCallKey } from '../../schemas/llm.js';

/**
 * `scripted:<spec>`: an absolute path; a path ending in `.json`, relative to the repository root;
 * otherwise a name, read from `<cassettesDir>/<name>.json` — a name may have folders
 * (`campaign/task_x.t1` → data/cassettes/campaign/task_x.t1.json); a `/` spec with no such cassette
 * stays a path relative to the repository root.
 */
export function resolveCassettePath(spec: string, cassettesDir = 'data/cassettes'): string {
  if (path.isAbsolute(spec)) return spec;
  if (spec.endsWith('.json')) return path.resolve(repoRoot, spec);
  const named = path.resolve(repoRoot, cassettesDir, `${spec}.json`);
  if (!spec.includes('/') || existsSync(named)) return named;
  return path.resolve(repoRoot, spec);
}

const cache = new Map<string, { mtimeMs: number; cassette: Cassette }>();

export class CassetteError extends Error {
  override name = 'CassetteError';
}

/** Read and validate a cassette (cached until the file changes). */
export function loadCassette(file: string): Cassette {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    throw missingCassette(file);
  }
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.cassette;
  const cassette = parseCassette(readFileSync(file, 'utf8'), file);
  cache.set(file, { mtimeMs, cassette });
  return cassette;
}

function missingCassette(file: string): CassetteError {
  return new CassetteError(`scripted model: cassette ${file} does not exist (name a file in data/cassettes, or export one with \`physvec cassette export <workflow-id>\`)`);
}

function parseCassette(text: string, file: string): Cassette {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CassetteError(`scripted model: cassette ${file} is not valid JSON (${(err as Error).message})`);
  }
  const parsed = Cassette.safeParse(raw);
  if (!parsed.success) throw new CassetteError(`scripted model: invalid cassette\n${describeZodError(parsed.error, file)}`);
  return parsed.data;
}

/**
 * The cassette as run `runKey` first read it (lib/artifacts/run-pins.ts): a deploy that changes the
 * file mid-run does not change the answers a running reproduction gets (issue 25.4).
 */
export async function loadRunCassette(store: ArtifactStore, runKey: string, file: string): Promise<Cassette> {
  const pinned = await pinnedRead(store, runKey, `cassette:${file}`, async () => {
    try {
      return await readFile(file);
    } catch {
      throw missingCassette(file);
    }
  });
  return parseCassette(pinned.content.toString('utf8'), file);
}

/**
 * The entry for a call: among entries with the same role and stage and this iteration (else
 * iteration "*"), the one whose seq equals the call's seq; an entry without seq has its position
 * in that group as seq.
 */
export function findEntry(cassette: Cassette, key: LlmCallKey): CassetteEntry | undefined {
  for (const iteration of [key.iteration, '*'] as const) {
    const group = cassette.entries.filter((e) => e.role === key.role && e.stage === key.stage && e.iteration === iteration);
    const hit = group.find((e, i) => (e.seq ?? i) === key.seq);
    if (hit) return hit;
  }
  return undefined;
}

export function noMatchMessage(cassette: Cassette, key: LlmCallKey, file: string): string {
  const same = cassette.entries.filter((e) => e.role === key.role && e.stage === key.stage);
  const near = same.length
    ? `; it has ${same.length} entr${same.length === 1 ? 'y' : 'ies'} for role "${key.role}" stage "${key.stage}" at iteration(s) ${[...new Set(same.map((e) => JSON.stringify(e.iteration)))].join(', ')}`
    : `; it has no entry for role "${key.role}" and stage "${key.stage}" at all`;
  return `scripted model: cassette ${file} has no entry for role "${key.role}", stage "${key.stage}", iteration ${key.iteration}, seq ${key.seq}${near}`;
}
