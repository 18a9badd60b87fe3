// How much disk a work dir takes: allocated blocks (sparse files count what they use), hard links
// once, at any depth. du walks with openat(), so trees deeper than PATH_MAX are measured too.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

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
