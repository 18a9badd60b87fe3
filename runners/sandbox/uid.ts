// Each run gets its own uid (when the worker is root): the process cap then counts only that run's
// processes, runs cannot signal or read each other, and "every process of this uid" is exactly
// the run's process tree. The uids have no passwd entry; scripts get USER/HOME from the environment.
//
// A uid is held through an exclusive lock for the run's whole lifetime, so two workers on one host
// never pick the same one: the lock is a listening socket in the abstract Unix namespace named after
// the uid. The kernel gives such a name to one socket at a time and frees it when the holder closes
// it or dies, like flock on a lock file but with no file to go stale and no helper process. The
// namespace belongs to the network namespace, so the lock spans the workers that share the host's
// (sandboxed scripts get their own network namespace and cannot reach it).
import net from 'node:net';
import { pidsOfUid } from './process-tree.js';

const DEFAULT_BASE = 200_000;
const SPAN = 100_000;
const ATTEMPTS = 200;

export interface UidLease {
  uid: number;
  release(): Promise<void>;
}

function base(): number {
  const fromEnv = Number(process.env.PHYSVEC_SANDBOX_UID_BASE);
  return Number.isInteger(fromEnv) && fromEnv > 1000 ? fromEnv : DEFAULT_BASE;
}

/** How many uids from the base are used (PHYSVEC_SANDBOX_UID_SPAN narrows it, e.g. to test contention). */
function span(): number {
  const fromEnv = Number(process.env.PHYSVEC_SANDBOX_UID_SPAN);
  return Number.isInteger(fromEnv) && fromEnv >= 1 && fromEnv <= SPAN ? fromEnv : SPAN;
}

/** The lock's name; exported so a test can see who holds a uid. */
export function uidLockName(uid: number): string {
  return `\0physvec-sandbox-uid-${uid}`;
}

function tryLock(name: string): Promise<net.Server | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(null));
    // exclusive: never share the handle with cluster workers of this process.
    server.listen({ path: name, exclusive: true }, () => {
      server.unref();
      resolve(server);
    });
  });
}

/**
 * The uid a warm run's holder (holder.ts) runs as: not the script's, so the script can neither
 * signal nor ptrace it (a stopped holder would hold the run until its timeout); one per run uid,
 * just past the runs' range, so no two live holders share it, nor a process count.
 */
export function holderUidOf(uid: number): number {
  return uid + SPAN;
}

/** Whether `uid` lies in the range runs are given (so a dir it owns was a run's work dir). */
export function isSandboxUid(uid: number): boolean {
  return uid >= base() && uid < base() + SPAN;
}

/**
 * True when no run holds `uid` now: its lock is free and no process owns it. A work dir owned by
 * such a uid was left by a worker that died mid-run (its sandbox died with it: --die-with-parent).
 */
export async function uidIsIdle(uid: number): Promise<boolean> {
  const lock = await tryLock(uidLockName(uid));
  if (!lock) return false;
  await new Promise<void>((resolve) => lock.close(() => resolve()));
  return pidsOfUid(uid).length === 0;
}

/** A uid locked for this run that no live process owns; `release` when the run's processes are gone. */
export async function allocateSandboxUid(): Promise<UidLease> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const uid = base() + Math.floor(Math.random() * span());
    const lock = await tryLock(uidLockName(uid));
    if (!lock) continue;
    // Locked, but a process left by a worker that died without its sandbox (no bwrap) may still own it.
    if (pidsOfUid(uid).length > 0) {
      lock.close();
      continue;
    }
    let released = false;
    return {
      uid,
      release: () =>
        new Promise<void>((resolve) => {
          if (released) return resolve();
          released = true;
          lock.close(() => resolve());
        }),
    };
  }
  throw new Error(`could not find a free sandbox uid after ${ATTEMPTS} tries; set PHYSVEC_SANDBOX_UID_BASE to a free range`);
}
