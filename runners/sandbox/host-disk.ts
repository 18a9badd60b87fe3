// Whether the HOST's disk is full — an infrastructure fault, never a script result. A run writes to
// its work dir (the sandbox root in the state dir) and the worker writes its logs, figures and
// checkpoints to the artifact store; when one of those file systems fills up, the script's writes
// fail ("OSError: [Errno 28] No space left on device") and so do the worker's (ENOSPC), and the run
// ends non-zero through no fault of its own. Scoring that as "not executable" and asking for a
// repair (issue 26) is wrong; the run must wait for space and then continue.
//
// The decision, in one place for every writer (the script, the checkpoint snapshot, the store writes
// of logs and produced files, the restore of a checkpoint): a run ended unsuccessfully, the evidence
// says out of space (its output tail, or a worker-side write that raised ENOSPC/EDQUOT), its own disk
// use stayed under its cap (past the cap it is the script's `killedReason: 'disk'`), AND one of
// those file systems really is nearly full now (statfs: free < max(64 MiB, 1 %), or almost no free
// inodes). The statfs check keeps a script that fills its own capped private /tmp, or merely prints
// the words, a script result. The check runs before the work dir is removed: what the run wrote
// still counts.
import { readFile, realpath, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FileSystemSpace, type HostDiskShortage } from '../../schemas/host-disk.js';
import type { SandboxResult } from '../../schemas/sandbox.js';
import { sandboxRoot, workDirRemovals } from './workdir.js';

/** How much room a file system is asked to keep free for sandbox runs. */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;
export const MIN_FREE_FRACTION = 0.01;
const MIN_FREE_INODES = 1024;

/** Answers statfs-like for a path that exists; tests inject one to say "1 MiB free". */
export type FreeSpaceProbe = (path: string) => Promise<FileSystemSpace>;
export const statfsProbe: FreeSpaceProbe = (p) => statfs(p);

const OUT_OF_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT']);
/** What a script (Python, Julia, a C library) prints when a write finds no space. */
const OUT_OF_SPACE_TEXT = /No space left on device|\bENOSPC\b|\[Errno 28\]|Disk quota exceeded|\bEDQUOT\b|\[Errno 122\]/;

/** An ENOSPC/EDQUOT error, or one caused by it. */
export function isOutOfSpaceError(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (OUT_OF_SPACE_CODES.has(String((e as { code?: unknown }).code))) return true;
  }
  return false;
}

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** "<path> (file system at <mount>) has 1.0 MiB free of 36.0 MiB, below the 64.0 MiB sandbox runs need". */
export function describeShortage(s: HostDiskShortage): string {
  const where = `${s.path} (file system at ${s.mount})`;
  if (s.freeInodes !== undefined) return `${where} has only ${s.freeInodes} free inodes (and ${mib(s.freeBytes)} free)`;
  return `${where} has ${mib(s.freeBytes)} free of ${mib(s.sizeBytes)}, below the ${mib(s.thresholdBytes)} sandbox runs need`;
}

export class HostDiskFullError extends Error {
  override name = 'HostDiskFullError';
  constructor(readonly shortage: HostDiskShortage, readonly evidence: string, options?: { cause?: unknown }) {
    super(`the host's disk is full, not the script's fault: ${describeShortage(shortage)} (${evidence}); free space on ${shortage.mount}; the run continues by itself`, options);
  }
}

/** The shortage `space` means for `p`, or null when it has room. */
export function shortageOf(p: string, mount: string, space: FileSystemSpace): HostDiskShortage | null {
  const sizeBytes = space.blocks * space.bsize;
  const freeBytes = space.bavail * space.bsize;
  const thresholdBytes = Math.max(MIN_FREE_BYTES, Math.ceil(sizeBytes * MIN_FREE_FRACTION));
  // Some file systems (btrfs) report no inode counts at all: then only bytes are judged.
  const inodesShort = space.files > 0 && space.ffree < Math.min(MIN_FREE_INODES, space.files * MIN_FREE_FRACTION);
  if (freeBytes >= thresholdBytes && !inodesShort) return null;
  return { path: p, mount, freeBytes, sizeBytes, thresholdBytes, ...(freeBytes >= thresholdBytes ? { freeInodes: space.ffree } : {}) };
}

export interface WaitForRoomOptions {
  signal?: AbortSignal;
  /** How often the space is looked at (and `onWait` called: the caller's heartbeat). */
  pollMs?: number;
  /** At most one log line this often while waiting. */
  logEveryMs?: number;
  onWait?: (s: HostDiskShortage) => void;
  log?: (line: string) => void;
}

/** One run's view of the host's disk: the paths it writes to, and the out-of-space errors the worker met on its behalf. */
export class HostDisk {
  private workerWriteFailure: string | null = null;

  constructor(
    private readonly paths: () => readonly string[],
    private readonly probe: FreeSpaceProbe = statfsProbe,
  ) {}

  /** A worker-side write for the run failed (a checkpoint snapshot); out of space, it is evidence should the run fail. */
  noteWriteError(err: unknown): void {
    if (isOutOfSpaceError(err)) this.workerWriteFailure ??= `a worker-side write failed: ${(err as Error).message}`.slice(0, 300);
  }

  /** The first of the run's file systems (`extra` first) that is nearly full, or null. A probe that fails says nothing. */
  async shortage(extra: readonly string[] = []): Promise<HostDiskShortage | null> {
    await workDirRemovals(); // space a finished run's work dir still takes is about to be free
    for (const p of new Set([...extra, ...this.paths()].map((x) => path.resolve(x)))) {
      const at = await nearestExisting(p);
      let space: FileSystemSpace;
      try {
        space = FileSystemSpace.parse(await this.probe(at));
      } catch {
        continue;
      }
      const s = shortageOf(p, at, space);
      if (s) return { ...s, mount: await mountPointOf(at) };
    }
    return null;
  }

  /** After a run ended: the HostDiskFullError it comes down to, or null when it is the script's own result. */
  async afterRun(result: SandboxResult, workDir: string): Promise<HostDiskFullError | null> {
    if (result.ok || result.killedReason === 'disk' || result.killedReason === 'cancelled') return null;
    const peak = result.usage.diskPeakBytes;
    if (peak !== null && peak >= result.limits.diskMb * 1024 * 1024) return null;
    const said = OUT_OF_SPACE_TEXT.exec(`${result.stderrTail}\n${result.stdoutTail}`)?.[0];
    const evidence = said ? `the script's output says "${said}"` : this.workerWriteFailure;
    if (!evidence) return null;
    const s = await this.shortage([workDir]);
    return s ? new HostDiskFullError(s, `run ${result.runId} exited ${result.exitCode ?? result.signal}; ${evidence}`) : null;
  }

  /** An exception of the run (a store write, collection, restore): a HostDiskFullError if it was the full host disk, else `err`. */
  async explain(err: unknown, workDir?: string): Promise<unknown> {
    if (err instanceof HostDiskFullError || !isOutOfSpaceError(err)) return err;
    const s = await this.shortage(workDir ? [workDir] : []);
    return s ? new HostDiskFullError(s, `a worker-side write failed: ${(err as Error).message}`.slice(0, 400), { cause: err }) : err;
  }

  /** Before a run: resolves once every file system has room; rejects (AbortError) when `signal` aborts. Returns the ms waited. */
  async waitForRoom(opts: WaitForRoomOptions = {}): Promise<number> {
    const { signal, pollMs = 5_000, logEveryMs = 60_000 } = opts;
    const since = Date.now();
    let loggedAt = -Infinity;
    let waited = false;
    for (;;) {
      signal?.throwIfAborted();
      const s = await this.shortage();
      if (!s) {
        if (waited) opts.log?.(`disk space is back after ${Math.round((Date.now() - since) / 1000)} s; the run starts`);
        return Date.now() - since;
      }
      waited = true;
      opts.onWait?.(s);
      if (Date.now() - loggedAt >= logEveryMs) {
        loggedAt = Date.now();
        opts.log?.(`waiting for disk space before the run starts: ${describeShortage(s)}; free space on ${s.mount}; the run starts by itself`);
      }
      await sleep(pollMs, undefined, { signal });
    }
  }
}

/** The file systems a run of this worker writes to: the sandbox root (work dirs) and the artifact store. */
export function hostDiskFor(store: { root: string }, probe?: FreeSpaceProbe): HostDisk {
  return new HostDisk(() => [sandboxRoot(), store.root], probe);
}

/** `p`, or its nearest ancestor that exists (the store's root is made at its first write). */
async function nearestExisting(p: string): Promise<string> {
  for (let d = p; ; d = path.dirname(d)) {
    if (await stat(d).then(() => true, () => false)) return d;
    if (path.dirname(d) === d) return d;
  }
}

/** Where `p`'s file system is mounted (the longest mount point containing it), for the "free space on …" advice. */
async function mountPointOf(p: string): Promise<string> {
  const real = await realpath(p).catch(() => p);
  const info = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  let best = '/';
  for (const line of info.split('\n')) {
    // Field 5 is the mount point, with spaces and the like octal-escaped.
    const mount = line.split(' ')[4]?.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));
    if (!mount) continue;
    const inside = mount === '/' || real === mount || real.startsWith(`${mount}/`);
    if (inside && mount.length > best.length) best = mount;
  }
  return best;
}
