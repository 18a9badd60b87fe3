// How much disk a work dir takes: allocated blocks (sparse files count what they use), hard links
// once, at any depth. du walks with openat(), so trees deeper than PATH_MAX are measured too.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

const DU_CANDIDATES = ['/usr/bin/du', '/bin/du'];

export function duBinary(): string | null {
  return DU_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** Bytes under `dir` on its file system, or null when du could not say. */
export function diskUsageBytes(du: string, dir: string): Promise<number | null> {
  return new Promise((resolve) => {
    // Exit status 1 only means some entry vanished or was unreadable mid-walk; the total still counts.
    execFile(du, ['-s', '-x', '-B1', '--', dir], { timeout: 60_000, maxBuffer: 1 << 20 }, (_err, stdout) => {
      const bytes = Number(/^(\d+)/.exec(String(stdout))?.[1]);
      resolve(Number.isFinite(bytes) ? bytes : null);
    });
  });
}

/** Past this many entries the in-process walk gives up and du measures. */
const WALK_MAX_ENTRIES = 2_000;

/**
 * The same total as `du -s -x -B1` for a small tree, without starting a process (the last check
 * after every run); null when the tree is large, deeper than a path can name, or changes under it
 * (then du measures).
 */
export async function smallTreeUsageBytes(dir: string): Promise<number | null> {
  const seen = new Set<string>();
  let entries = 0;
  let total = 0;
  const root = await lstat(dir).catch(() => null);
  if (!root) return null;
  const walk = async (p: string): Promise<boolean> => {
    const st = await lstat(p);
    if (st.dev !== root.dev) return true;
    if (st.nlink > 1 && !st.isDirectory()) {
      const key = `${st.dev}:${st.ino}`;
      if (seen.has(key)) return true;
      seen.add(key);
    }
    total += st.blocks * 512;
    if (!st.isDirectory()) return true;
    const names = await readdir(p);
    entries += names.length;
    if (entries > WALK_MAX_ENTRIES) return false;
    for (const n of names) if (!(await walk(path.join(p, n)))) return false;
    return true;
  };
  try {
    return (await walk(dir)) ? total : null;
  } catch {
    return null;
  }
}
