// Removing a directory a script has filled, whatever it made: nesting deeper than PATH_MAX and
// names up to 255 bytes (Node's fs.rm builds full paths and fails with ENAMETOOLONG there), modes
// that forbid listing. GNU rm walks with openat() relative to each directory, so depth does not
// matter; --one-file-system keeps it from crossing into anything mounted inside. Node's fs.rm is
// the fallback where rm is missing or fails. A small tree is removed in-process first.
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { readdirUpToSync } from './bounded-readdir.js';

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

/** Past this many entries (or any other file system below it) a tree is left to rm. */
const IN_PROCESS_MAX_ENTRIES = 500;

/**
 * A small tree on one file system (a run's work dir, usually), removed without starting a
 * process: starting rm forks the worker, which costs more than the removal (~5 ms per run). False
 * when the tree is not such a tree or anything was in the way; rm then does the rest.
 */
function removeSmallTreeInProcess(dir: string): boolean {
  let entries = 0;
  const small = (p: string, dev: number): boolean => {
    const st = lstatSync(p);
    if (st.dev !== dev) return false;
    if (!st.isDirectory()) return true;
    // Bounded: a directory of a million names is not listed in full just to learn it is large.
    const listing = readdirUpToSync(p, IN_PROCESS_MAX_ENTRIES - entries);
    entries += listing.entries.length;
    return !listing.more && listing.entries.every((e) => small(path.join(p, e.name), dev));
  };
  try {
    if (!small(dir, lstatSync(dir).dev)) return false;
    rmSync(dir, { recursive: true, force: true });
    return !existsSync(dir);
  } catch {
    return false;
  }
}

/** Remove `dir` and everything below it; resolves to null when it is gone, else to why it is not. */
export async function removeTree(dir: string): Promise<string | null> {
  if (removeSmallTreeInProcess(dir)) return null;
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
