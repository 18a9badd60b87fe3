// How much disk a work dir takes: allocated blocks (sparse files count what they use), hard links
// once, at any depth. du walks with openat(), so trees deeper than PATH_MAX are measured too.
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, type Stats } from 'node:fs';
import path from 'node:path';
import { readdirUpToSync } from './bounded-readdir.js';

const DU_CANDIDATES = ['/usr/bin/du', '/bin/du'];

export function duBinary(): string | null {
  return DU_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** One `du -s -x <args> -- dir`: its total, or null when du could not say. */
function duTotal(du: string, args: string[], dir: string): Promise<number | null> {
  return new Promise((resolve) => {
    // Exit status 1 only means some entry vanished or was unreadable mid-walk; the total still counts.
    execFile(du, ['-s', '-x', ...args, '--', dir], { timeout: 60_000, maxBuffer: 1 << 20 }, (_err, stdout) => {
      const n = Number(/^(\d+)/.exec(String(stdout))?.[1]);
      resolve(Number.isFinite(n) ? n : null);
    });
  });
}

/** Bytes under `dir` on its file system, or null when du could not say. */
export function diskUsageBytes(du: string, dir: string): Promise<number | null> {
  return duTotal(du, ['-B1'], dir);
}

/**
 * Entries below `dir` (files, directories, links; each hard link counted, as each costs an unlink),
 * or null when du could not say. du walks out of the worker's process, at any depth.
 */
export async function entryCount(du: string, dir: string): Promise<number | null> {
  const inodes = await duTotal(du, ['--inodes', '--count-links'], dir);
  // du counts `dir` itself.
  return inodes === null ? null : Math.max(0, inodes - 1);
}

/**
 * Past this many entries the in-process walk gives up and du measures. The walk is synchronous: on
 * a busy host each asynchronous lstat/readdir waited its turn on the thread pool, ~3-4 ms for the
 * few entries of a typical run at load 4 (this check ends every run); a thousand lstats hold the
 * event loop for a few milliseconds at most.
 */
const WALK_MAX_ENTRIES = 1_000;

export interface TreeUsage {
  bytes: number;
  /** As entryCount(). */
  entries: number;
}

/**
 * The same totals as du for a small tree, without starting a process (the last check after every
 * run); null when the tree is large, deeper than a path can name, or changes under it (then du
 * measures).
 */
export function smallTreeUsage(dir: string): TreeUsage | null {
  const seen = new Set<string>();
  let entries = 0;
  let total = 0;
  let root: Stats;
  try {
    root = lstatSync(dir);
  } catch {
    return null;
  }
  const walk = (p: string): boolean => {
    const st = lstatSync(p);
    if (st.dev !== root.dev) return true;
    if (st.nlink > 1 && !st.isDirectory()) {
      const key = `${st.dev}:${st.ino}`;
      if (seen.has(key)) return true;
      seen.add(key);
    }
    total += st.blocks * 512;
    if (!st.isDirectory()) return true;
    const listing = readdirUpToSync(p, WALK_MAX_ENTRIES - entries);
    entries += listing.entries.length;
    if (listing.more) return false;
    for (const e of listing.entries) if (!walk(path.join(p, e.name))) return false;
    return true;
  };
  try {
    return walk(dir) ? { bytes: total, entries } : null;
  } catch {
    return null;
  }
}
