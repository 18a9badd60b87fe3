// What a run reads from its worker's checkout is pinned at the first read (issue 25.4): the content
// goes to the artifact store, and the run's pin — a small file under <store>/pins/, written once —
// names it, so every later read of that run, on any worker sharing the store and whatever build it
// is, sees the same bytes. A deploy that changes the checkout (a `git pull` under a running worker,
// a new cassette) cannot change what a running reproduction sees.
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ArtifactStore } from './store.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

function pinFile(store: ArtifactStore, runKey: string, name: string): string {
  return path.join(store.root, 'pins', sha(runKey).slice(0, 32), sha(name).slice(0, 32));
}

export interface PinnedRead {
  content: Buffer;
  sha256: string;
  /** True when this read made the pin; false when an earlier read of the run (maybe on another worker) had. */
  pinnedNow: boolean;
}

/**
 * The content of `name` for run `runKey`: the pinned bytes when the run has read it before, else
 * `read()`'s, pinned now. Two first reads that race agree on the one that pinned first.
 */
export async function pinnedRead(store: ArtifactStore, runKey: string, name: string, read: () => Promise<Buffer>): Promise<PinnedRead> {
  const file = pinFile(store, runKey, name);
  const existing = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (existing) {
    const sha256 = existing.trim();
    return { content: await store.get(sha256), sha256, pinnedNow: false };
  }
  const content = await read();
  const ref = await store.put(content, { name: path.basename(name) });
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomUUID()}.tmp`;
  await fs.writeFile(tmp, `${ref.sha256}\n`);
  try {
    await fs.link(tmp, file); // fails with EEXIST when another read pinned first: that pin wins
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await fs.rm(tmp, { force: true });
  }
  const winner = (await fs.readFile(file, 'utf8')).trim();
  return { content: winner === ref.sha256 ? content : await store.get(winner), sha256: winner, pinnedNow: winner === ref.sha256 };
}
