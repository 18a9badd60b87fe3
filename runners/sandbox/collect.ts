// Files a run produced, stored in the artifact store. Only regular, singly-linked files are read
// (never symlinks: a script could point one at a root-only file), the inputs and the sandbox's own
// scratch are skipped, and size and count are capped so the result stays payload-sized. The walk
// itself is capped too (MAX_WALK_ENTRIES entries listed, directories included), so a tree of
// millions costs no more than one of 20 000.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import { SANDBOX_PRIVATE_DIR, type ProducedFile, type SkippedFile } from '../../schemas/sandbox.js';
import { readdirUpTo } from './bounded-readdir.js';
import { matchesAny } from './glob.js';
import { mediaTypeOf } from './media-type.js';

export const MAX_COLLECTED_FILE_BYTES = 20 * 1024 * 1024;
export const MAX_COLLECTED_FILES = 32;
const MAX_SKIPPED_LISTED = 16;
const MAX_WALK_ENTRIES = 20_000;

export interface CollectOptions {
  inputs: ReadonlySet<string>;
  globs?: readonly string[];
}

interface Walk {
  found: { rel: string; abs: string }[];
  /** Entries listed so far, directories included (a tree of a million empty dirs costs as much as one of files). */
  listed: number;
  /** Where the walk stopped at MAX_WALK_ENTRIES, if it did. */
  stoppedIn: string | null;
}

async function walk(dir: string, rel: string, w: Walk): Promise<void> {
  let listing;
  try {
    listing = await readdirUpTo(dir, MAX_WALK_ENTRIES - w.listed);
  } catch {
    return;
  }
  w.listed += listing.entries.length;
  if (listing.more) w.stoppedIn ??= rel || '.';
  // A directory listed in full is walked in name order; one cut short in the order it was read.
  const entries = listing.entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (!rel && e.name === SANDBOX_PRIVATE_DIR) continue;
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) await walk(abs, r, w);
    else w.found.push({ rel: r, abs });
  }
}

export async function collectProducedFiles(
  workDir: string,
  store: ArtifactStore,
  opts: CollectOptions,
): Promise<{ files: ProducedFile[]; skipped: SkippedFile[] }> {
  const w: Walk = { found: [], listed: 0, stoppedIn: null };
  await walk(workDir, '', w);
  const files: ProducedFile[] = [];
  const skipped: SkippedFile[] = [];
  const skip = (s: SkippedFile) => {
    if (skipped.length < MAX_SKIPPED_LISTED) skipped.push(s);
  };
  // Said first, so it survives the cap on the list: past this point nothing was even looked at.
  if (w.stoppedIn !== null) skip({ path: w.stoppedIn, bytes: 0, reason: 'too-many' });
  const found = w.found;
  for (const { rel, abs } of found) {
    // Full on both counts: nothing further could change the result.
    if (files.length >= MAX_COLLECTED_FILES && skipped.length >= MAX_SKIPPED_LISTED) break;
    if (opts.inputs.has(rel)) continue;
    if (opts.globs && !matchesAny(rel, opts.globs)) continue;
    // A path past PATH_MAX (a deep tree) or a file removed meanwhile is listed, not fatal.
    const st = await lstat(abs).catch(() => null);
    if (!st) skip({ path: rel.slice(0, 1024), bytes: 0, reason: 'unreadable' });
    else if (!st.isFile()) skip({ path: rel, bytes: 0, reason: 'not-a-regular-file' });
    else if (st.nlink > 1) skip({ path: rel, bytes: st.size, reason: 'linked' });
    else if (st.size > MAX_COLLECTED_FILE_BYTES) skip({ path: rel, bytes: st.size, reason: 'too-large' });
    else if (files.length >= MAX_COLLECTED_FILES) skip({ path: rel, bytes: st.size, reason: 'too-many' });
    else {
      const mediaType = mediaTypeOf(rel);
      files.push({ path: rel, ref: await store.putFile(abs, { name: rel, ...(mediaType ? { mediaType } : {}) }) });
    }
  }
  return { files, skipped };
}
