// Each run gets its own uid (when the worker is root): the process cap then counts only that run's
// processes, runs cannot signal or read each other, and "every process of this uid" is exactly
// the run's process tree. The uids have no passwd entry; scripts get USER/HOME from the environment.
import { pidsOfUid } from './process-tree.js';

const DEFAULT_BASE = 200_000;
const SPAN = 100_000;
const inUse = new Set<number>();

function base(): number {
  const fromEnv = Number(process.env.PHYSVEC_SANDBOX_UID_BASE);
  return Number.isInteger(fromEnv) && fromEnv > 1000 ? fromEnv : DEFAULT_BASE;
}

/** A uid no live process owns; released with `releaseSandboxUid`. */
export function allocateSandboxUid(): number {
  for (let attempt = 0; attempt < 100; attempt++) {
    const uid = base() + Math.floor(Math.random() * SPAN);
    if (inUse.has(uid) || pidsOfUid(uid).length > 0) continue;
    inUse.add(uid);
    return uid;
  }
  throw new Error('could not find a free sandbox uid after 100 tries; set PHYSVEC_SANDBOX_UID_BASE to a free range');
}

export function releaseSandboxUid(uid: number): void {
  inUse.delete(uid);
}
