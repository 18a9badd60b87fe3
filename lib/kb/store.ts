// The built knowledge base on disk: <kbDir>/<buildId>/{chunks.json,index.json} plus <kbDir>/manifest.json
// naming the current build. The manifest is written last (by rename), so a reader never sees a half build.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { z } from 'zod';
import { badInputFromZod } from '../errors.js';
import { KbChunk, KbManifest } from '../../schemas/kb.js';
import { indexOptions } from './index-options.js';
import { kbDir } from './paths.js';

export const StoredManifest = KbManifest.extend({ buildId: z.string().regex(/^[a-z0-9-]+$/) });
export type StoredManifest = z.infer<typeof StoredManifest>;

export interface LoadedKb {
  manifest: StoredManifest;
  chunks: KbChunk[];
  index: MiniSearch<KbChunk>;
}

export function manifestPath(dir = kbDir()): string {
  return path.join(dir, 'manifest.json');
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

export async function readManifest(dir = kbDir()): Promise<StoredManifest | null> {
  const file = manifestPath(dir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const parsed = StoredManifest.safeParse(JSON.parse(text));
  // An unreadable manifest (older format) just means "not built": the next build replaces it.
  return parsed.success ? parsed.data : null;
}

export async function saveKb(
  manifest: StoredManifest,
  chunks: KbChunk[],
  index: MiniSearch<KbChunk>,
  dir = kbDir(),
): Promise<void> {
  const buildDir = path.join(dir, manifest.buildId);
  await mkdir(buildDir, { recursive: true });
  await writeFile(path.join(buildDir, 'chunks.json'), JSON.stringify(chunks));
  await writeFile(path.join(buildDir, 'index.json'), JSON.stringify(index));
  await writeAtomic(manifestPath(dir), JSON.stringify(manifest, null, 2));
  await removeStaleBuilds(dir, manifest.buildId);
}

// Another process may have just switched the manifest to its own fresh build: only builds that are
// neither current nor recent are removed.
async function removeStaleBuilds(dir: string, keep: string): Promise<void> {
  const current = (await readManifest(dir))?.buildId;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (!e.isDirectory() || !e.name.startsWith('build-') || e.name === keep || e.name === current) continue;
    const p = path.join(dir, e.name);
    if (Date.now() - (await stat(p)).mtimeMs > 60_000) await rm(p, { recursive: true, force: true });
  }
}

/** The files of a build: its chunks and its search index. */
export function buildFiles(manifest: StoredManifest, dir = kbDir()): { chunks: string; index: string } {
  const buildDir = path.join(dir, manifest.buildId);
  return { chunks: path.join(buildDir, 'chunks.json'), index: path.join(buildDir, 'index.json') };
}

export async function loadKbFromDisk(manifest: StoredManifest, dir = kbDir()): Promise<LoadedKb> {
  const files = buildFiles(manifest, dir);
  return parseKb(manifest, await readFile(files.chunks, 'utf8'), await readFile(files.index, 'utf8'), files.chunks);
}

/** A build from the texts of its two files (from disk, or from the artifact store: lib/kb/pinned.ts). */
export function parseKb(manifest: StoredManifest, chunksText: string, indexText: string, where: string): LoadedKb {
  const parsed = z.array(KbChunk).safeParse(JSON.parse(chunksText));
  if (!parsed.success) throw badInputFromZod(parsed.error, where);
  const index = MiniSearch.loadJSON<KbChunk>(indexText, indexOptions());
  return { manifest, chunks: parsed.data, index };
}

export async function buildExists(manifest: StoredManifest, dir = kbDir()): Promise<boolean> {
  try {
    await stat(path.join(dir, manifest.buildId, 'index.json'));
    return true;
  } catch {
    return false;
  }
}
