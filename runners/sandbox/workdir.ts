// A run's work directory: <stateDir>/sandbox/<runId>/, the inputs written into it, owned by the
// run's uid so the script can write there and nowhere else.
import { chmod, chown, lchown, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactStore } from '../../activities/artifacts/store.js';
import { stateDir } from '../../lib/paths.js';
import { SANDBOX_PRIVATE_DIR, type SandboxFile } from '../../schemas/sandbox.js';

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
export async function chownTree(dir: string, uid: number): Promise<void> {
  await chown(dir, uid, uid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(p, uid);
    else await lchown(p, uid, uid);
  }
}

export async function removeWorkDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}

export function keepWorkDirs(): boolean {
  return process.env.PHYSVEC_KEEP_SANDBOX === '1';
}

/** Older than the longest allowed run plus a margin: left behind by a worker that died mid-run. */
const STALE_AFTER_MS = 48 * 3600_000;
let swept = false;

/** Once per process, in the background: remove work dirs abandoned by crashed workers. */
export function sweepStaleWorkDirsOnce(): void {
  if (swept || keepWorkDirs()) return;
  swept = true;
  void removeStaleWorkDirs().catch(() => undefined);
}

/** Work dirs untouched for 48 h (their processes died with the worker: bwrap --die-with-parent). */
export async function removeStaleWorkDirs(now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(sandboxRoot());
  } catch {
    return removed;
  }
  for (const name of names) {
    const dir = path.join(sandboxRoot(), name);
    try {
      if (now - (await stat(dir)).mtimeMs > STALE_AFTER_MS) {
        await removeWorkDir(dir);
        removed.push(dir);
      }
    } catch {
      // Removed by someone else meanwhile.
    }
  }
  return removed;
}
