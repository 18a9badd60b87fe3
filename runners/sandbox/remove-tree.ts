// Removing a directory a script has filled, whatever it made: nesting deeper than PATH_MAX and
// names up to 255 bytes (Node's fs.rm builds full paths and fails with ENAMETOOLONG there), modes
// that forbid listing. GNU rm walks with openat() relative to each directory, so depth does not
// matter; --one-file-system keeps it from crossing into anything mounted inside. Node's fs.rm is
// the fallback where rm is missing or fails.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';

const RM_CANDIDATES = ['/usr/bin/rm', '/bin/rm'];
const RM_TIMEOUT_MS = 10 * 60_000;

function rmBinary(): string | null {
  return RM_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

function runRm(rmPath: string, dir: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(rmPath, ['-rf', '--one-file-system', '--', dir], { timeout: RM_TIMEOUT_MS, maxBuffer: 1 << 20 }, (err, _out, stderr) => {
      resolve(err ? (String(stderr).trim().split('\n')[0] || err.message) : null);
    });
  });
}

/** Remove `dir` and everything below it; resolves to null when it is gone, else to why it is not. */
export async function removeTree(dir: string): Promise<string | null> {
  const rmPath = rmBinary();
  const viaRm = rmPath ? await runRm(rmPath, dir) : 'rm not found';
  if (!existsSync(dir)) return null;
  try {
    await rm(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch (err) {
    return `${viaRm ?? 'rm left it'}; fs.rm: ${(err as Error).message}`;
  }
  return existsSync(dir) ? (viaRm ?? 'it is still there') : null;
}
