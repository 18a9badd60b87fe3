// The checkout files a run reads, pinned with the run (issue 25.4), on top of run-pins.ts: a file, a
// folder (one snapshot of all its files, so a run never mixes two versions of a library), or a value
// computed from such files (the prepared task). Pins are named by the path relative to the
// repository root, so a worker in another checkout of the same run (an upgraded run, a replacement
// worker) finds them; a path outside the checkout is named absolutely.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { repoRoot } from '../paths.js';
import { pinnedRead, type PinnedRead } from './run-pins.js';
import type { ArtifactStore } from './store.js';
import { BadInputError } from '../errors.js';

/** Which run is reading, and where its pins live. */
export interface RunInputs {
  store: ArtifactStore;
  /** The run's workflow id (a campaign child has its own). */
  runKey: string;
}

export function inputName(kind: string, file: string): string {
  const rel = path.relative(repoRoot, path.resolve(file));
  return `${kind}:${rel.startsWith('..') || path.isAbsolute(rel) ? path.resolve(file) : rel}`;
}

/** The bytes of `file` as the run first read them. */
export async function pinnedFile(inputs: RunInputs, file: string, kind = 'file'): Promise<PinnedRead> {
  return pinnedRead(inputs.store, inputs.runKey, inputName(kind, file), () => readFile(file));
}

const TreeSnapshot = z.object({ files: z.record(z.string(), z.string()) });

/** A folder snapshot so large is a mistake (the verifier libraries are ~100 KB each). */
const MAX_TREE_BYTES = 32 * 1024 * 1024;

async function readTree(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  let total = 0;
  const walk = async (sub: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(path.join(dir, sub), { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const rel = path.join(sub, e.name);
      if (e.isDirectory()) await walk(rel);
      else if (e.isFile()) {
        const text = await readFile(path.join(dir, rel), 'utf8');
        total += text.length;
        if (total > MAX_TREE_BYTES) throw new BadInputError(`${dir}: over ${MAX_TREE_BYTES >> 20} MiB of files; a run pins this folder whole, keep it small`, dir);
        files[rel] = text;
      }
    }
  };
  await walk('');
  return files;
}

/**
 * Every file under `dir` (relative path → UTF-8 text) as the run first read the folder; an absent
 * folder is an empty snapshot, pinned like any other (a library built mid-run stays absent for it).
 */
export async function pinnedTree(inputs: RunInputs, dir: string, kind = 'tree'): Promise<ReadonlyMap<string, string>> {
  const pinned = await pinnedRead(inputs.store, inputs.runKey, inputName(kind, dir), async () => Buffer.from(JSON.stringify({ files: await readTree(dir) })));
  return new Map(Object.entries(TreeSnapshot.parse(JSON.parse(pinned.content.toString('utf8'))).files));
}

/**
 * `produce()`'s value as the run first produced it (validated with `schema` when read back): for
 * what is derived from many checkout files at once, like a prepared task. A failure pins nothing.
 */
export async function pinnedValue<T>(inputs: RunInputs, name: string, schema: z.ZodType<T>, produce: () => Promise<T>): Promise<T> {
  const pinned = await pinnedRead(inputs.store, inputs.runKey, name, async () => Buffer.from(JSON.stringify(await produce())));
  // Read back even when pinned now: the first read and a later one return the same value (JSON's, as Temporal carries it).
  const parsed = schema.safeParse(JSON.parse(pinned.content.toString('utf8')));
  if (!parsed.success) throw new Error(`run ${inputs.runKey}: the pinned ${name} (${inputs.store.describe(pinned.sha256)}) no longer fits its schema: ${parsed.error.message}`);
  return parsed.data;
}
