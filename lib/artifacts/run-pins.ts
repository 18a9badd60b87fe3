// What a run reads from its worker's checkout is pinned at the first read (issue 25.4): the content
// goes to the artifact store, and the run's pin — a small blob under <store>/pins/, written once —
// names it, so every later read of that run, on any worker sharing the store and whatever build it
// is, sees the same bytes. A deploy that changes the checkout (a `git pull` under a running worker,
// a new cassette) cannot change what a running reproduction sees.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ArtifactStore } from './store.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

function pinKey(runKey: string, name: string): string {
  return `pins/${sha(runKey).slice(0, 32)}/${sha(name).slice(0, 32)}`;
}

async function readPin(store: ArtifactStore, key: string): Promise<string | undefined> {
  if (!(await store.backend.has(key))) return undefined;
  return (await store.backend.read(key)).toString('utf8').trim() || undefined;
}

export interface PinnedRead {
  content: Buffer;
  sha256: string;
  /** True when this read made the pin; false when an earlier read of the run (maybe on another worker) had. */
  pinnedNow: boolean;
}

/**
 * The content of `name` for run `runKey`: the pinned bytes when the run has read it before, else
 * `read()`'s, pinned now. Two first reads that race agree on the one that pinned first (the
 * backend's write-once create: a hard link here, a conditional PUT in a bucket).
 */
export async function pinnedRead(store: ArtifactStore, runKey: string, name: string, read: () => Promise<Buffer>): Promise<PinnedRead> {
  const key = pinKey(runKey, name);
  const existing = await readPin(store, key);
  if (existing) return { content: await store.get(existing), sha256: existing, pinnedNow: false };
  const content = await read();
  const ref = await store.put(content, { name: path.basename(name) });
  await store.backend.createOnce(key, Buffer.from(`${ref.sha256}\n`));
  const winner = (await readPin(store, key)) ?? ref.sha256;
  return { content: winner === ref.sha256 ? content : await store.get(winner), sha256: winner, pinnedNow: winner === ref.sha256 };
}
