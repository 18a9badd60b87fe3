// A run's work directory: <stateDir>/sandbox/<runId>/, the inputs written into it, owned by the
// run's uid so the script can write there and nowhere else.
import { chmodSync, chownSync, lchownSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import { stateDir } from '../../lib/paths.js';
import { SANDBOX_PRIVATE_DIR, type SandboxFile } from '../../schemas/sandbox.js';
import { removeTree } from './remove-tree.js';
import { isSandboxUid, uidIsIdle } from './uid.js';

export function sandboxRoot(): string {
  return path.join(stateDir(), 'sandbox');
}

export interface WorkDir {
  dir: string;
  privateDir: string;
}

export async function createWorkDir(runId: string): Promise<WorkDir> {
  const root = sandboxRoot();
  await mkdir(root, { recursive: true });
  // Others may pass through (to reach their own run dir) but not list the runs.
  await chmod(root, 0o711);
  const dir = path.join(root, runId);
  await mkdir(dir, { mode: 0o700 });
  const privateDir = path.join(dir, SANDBOX_PRIVATE_DIR);
  await mkdir(path.join(privateDir, 'tmp'), { recursive: true });
  return { dir, privateDir };
}

export async function writeInputs(dir: string, files: readonly SandboxFile[], store: ArtifactStore): Promise<void> {
  for (const f of files) {
    const target = path.join(dir, ...f.path.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    const content = f.content !== undefined ? f.content : await store.get(f.ref!);
    await writeFile(target, content, { flag: 'wx' });
  }
}

/** Hand the whole tree to `uid` (gid = uid). */
export function chownTree(dir: string, uid: number): void {
  chownSync(dir, uid, uid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(p, uid);
    else lchownSync(p, uid, uid);
  }
}

const TRASH = '.trash';
/** Work dirs this process could not remove; the next sweep retries them. */
const leftBehind = new Set<string>();

/**
 * Remove a run's work dir; never throws, so the run's result always comes back. What cannot be
 * removed now is logged, moved to `<sandbox root>/.trash/` where it no longer looks like a live
 * run, and retried by the stale-dir sweep (at the next run, and a minute later).
 */
export async function removeWorkDir(dir: string): Promise<boolean> {
  const why = await removeTree(dir);
  if (why === null) return true;
  let kept: string;
  try {
    kept = path.join(trashDir(), `${path.basename(dir)}-${Date.now()}`);
    await rename(dir, kept);
  } catch {
    kept = dir;
  }
  leftBehind.add(kept);
  console.warn(`physvec sandbox: could not remove work dir ${dir} (${why}); kept at ${kept} for the stale-dir sweep to retry`);
  scheduleSweep(60_000);
  return false;
}

/** Removals of retired work dirs still under way, one after the other. */
let removals: Promise<unknown> = Promise.resolve();
let trashMade = '';

/** `.trash/`, root's only (what is in it still belongs to uids that go to other runs). */
function trashDir(): string {
  const trash = path.join(sandboxRoot(), TRASH);
  if (trashMade !== trash) {
    mkdirSync(trash, { recursive: true, mode: 0o700 });
    chmodSync(trash, 0o700);
    trashMade = trash;
  }
  return trash;
}

/**
 * Take a finished run's work dir out of its path at once and remove it in the background: removed
 * in line it cost 7 ms of every run's fixed cost at load 4 on 2 cores (0.9 ms idle;
 * scripts/bench-sandbox.ts (b')). The rename into `.trash/` (root only) is one metadata update, done
 * before the run's uid can go to another run. A worker that dies first leaves the rest to the next stale-dir sweep, which
 * empties `.trash/`. Whoever judges free space waits for these removals first (workDirRemovals).
 */
export async function retireWorkDir(dir: string): Promise<void> {
  let retired: string;
  try {
    retired = path.join(trashDir(), path.basename(dir));
    renameSync(dir, retired);
  } catch {
    await removeWorkDir(dir); // not movable (gone already, or another file system): removed in line
    return;
  }
  // After the run's result is on its way (not in this tick's microtasks), and off the event loop.
  removals = removals.then(() => new Promise((r) => setImmediate(r))).then(() => removeRetired(retired));
}

/** In the thread pool (fs.rm); what it cannot remove (a tree deeper than PATH_MAX, modes) goes the long way. */
async function removeRetired(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
    return;
  } catch {
    await removeWorkDir(dir);
  }
}

/** Settles once every work dir retired so far is removed (or kept in `.trash/` for the sweep). */
export function workDirRemovals(): Promise<void> {
  return removals.then(() => undefined);
}

export function keepWorkDirs(): boolean {
  return process.env.PHYSVEC_KEEP_SANDBOX === '1';
}

/** Older than the longest allowed run plus a margin: left behind by a worker that died mid-run. */
const STALE_AFTER_MS = 48 * 3600_000;
let swept = false;
let sweeping: Promise<unknown> | null = null;
let retryTimer: NodeJS.Timeout | null = null;

/** In the background: once per process, and again while something is left to retry. */
export function sweepStaleWorkDirsOnce(): void {
  if (keepWorkDirs() || sweeping || (swept && leftBehind.size === 0)) return;
  swept = true;
  sweeping = removeStaleWorkDirs()
    .catch(() => undefined)
    .finally(() => {
      sweeping = null;
    });
}

function scheduleSweep(ms: number): void {
  if (retryTimer) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    sweepStaleWorkDirsOnce();
  }, ms);
  retryTimer.unref();
}

/**
 * A dir handed to a run's uid whose lock nobody holds and which no process owns: its worker died
 * mid-run (the sandbox died with it: bwrap --die-with-parent). Removable at once, not after 48 h.
 */
async function abandonedByItsRun(dirUid: number): Promise<boolean> {
  return isSandboxUid(dirUid) && (await uidIsIdle(dirUid));
}

/**
 * Removes what this process failed to remove before, everything in `.trash/` (whoever put it
 * there), work dirs of runs whose worker died (see abandonedByItsRun), and work dirs untouched
 * for 48 h. Returns the dirs removed.
 */
export async function removeStaleWorkDirs(now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  const candidates = new Set(leftBehind);
  const root = sandboxRoot();
  for (const name of await readdirOrEmpty(path.join(root, TRASH))) candidates.add(path.join(root, TRASH, name));
  for (const name of await readdirOrEmpty(root)) {
    if (name === TRASH) continue;
    const dir = path.join(root, name);
    try {
      const st = await stat(dir);
      if (now - st.mtimeMs > STALE_AFTER_MS || (await abandonedByItsRun(st.uid))) candidates.add(dir);
    } catch {
      // Removed by someone else meanwhile.
    }
  }
  for (const dir of candidates) {
    const why = await removeTree(dir);
    if (why === null) {
      leftBehind.delete(dir);
      removed.push(dir);
    } else {
      leftBehind.add(dir);
      console.warn(`physvec sandbox: the stale-dir sweep could not remove ${dir} (${why}); it retries later`);
    }
  }
  if (leftBehind.size > 0) scheduleSweep(10 * 60_000);
  return removed;
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
