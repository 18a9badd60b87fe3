// Listing a directory a script filled, without reading all of it first: readdir() returns every
// name at once (millions, if the script made them), so a caller that only wants to know "more than
// N?" would pay for all of them before counting. These read at most `max` + 1 entries.
import { opendirSync, type Dirent } from 'node:fs';
import { opendir } from 'node:fs/promises';

export interface BoundedListing {
  entries: Dirent[];
  /** The directory holds more than `max` entries; `entries` holds the first `max` read (in no particular order). */
  more: boolean;
}

/** Up to `max` entries of `dir` (rejects as readdir would when it cannot be opened). */
export async function readdirUpTo(dir: string, max: number): Promise<BoundedListing> {
  const entries: Dirent[] = [];
  // Breaking out of the loop closes the directory.
  for await (const e of await opendir(dir, { bufferSize: 128 })) {
    if (entries.length >= max) return { entries, more: true };
    entries.push(e);
  }
  return { entries, more: false };
}

/** readdirUpTo, synchronously. */
export function readdirUpToSync(dir: string, max: number): BoundedListing {
  const handle = opendirSync(dir, { bufferSize: 128 });
  const entries: Dirent[] = [];
  try {
    for (let e = handle.readSync(); e !== null; e = handle.readSync()) {
      if (entries.length >= max) return { entries, more: true };
      entries.push(e);
    }
    return { entries, more: false };
  } finally {
    handle.closeSync();
  }
}
