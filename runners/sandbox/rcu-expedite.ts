// Moving a process into a cgroup (a write to `cgroup.procs`, on cgroup v1 as on this kernel) waits
// for an RCU grace period when none is under way: ~11 ms (p90 16 ms) each, measured here, and a run
// on a chain of its own makes two such moves (the chain's holder and the run process), a third of
// its fixed cost. With the kernel's expedited grace periods (/sys/kernel/rcu_expedited = 1) the same
// write takes ~0.3 ms. A worker that runs sandboxes in cgroups turns them on once at start and says
// so; it is a host-wide kernel setting (IPIs to every core at each grace period instead of waiting
// for their next tick), so an operator may keep the kernel as it is with
// PHYSVEC_SANDBOX_RCU_EXPEDITED=0. The setting is left on at exit: other workers may rely on it.
import { readFileSync, writeFileSync } from 'node:fs';

export const RCU_EXPEDITED_ENV = 'PHYSVEC_SANDBOX_RCU_EXPEDITED';
export const RCU_EXPEDITED_FILE = '/sys/kernel/rcu_expedited';

/** Turns expedited grace periods on if wanted and possible; the line to print when it changed the kernel, else null. */
export function expediteRcuGracePeriods(file = RCU_EXPEDITED_FILE, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env[RCU_EXPEDITED_ENV] === '0') return null;
  let now: string;
  try {
    now = readFileSync(file, 'utf8').trim();
  } catch {
    return null; // no such knob (another kernel, no sysfs): nothing to speed up this way
  }
  if (now !== '0') return null;
  try {
    writeFileSync(file, '1');
  } catch (err) {
    return `physvec sandbox: runs enter their cgroups at the kernel's normal RCU pace (~11 ms per move): ${file} is not writable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  return `physvec sandbox: kernel RCU grace periods expedited (${file} = 1), so a run enters its cgroup in ~0.3 ms instead of ~11 ms; ${RCU_EXPEDITED_ENV}=0 leaves the kernel as it is`;
}

let once: { line: string | null } | undefined;
/** expediteRcuGracePeriods, done once per process (the worker's warm-up); later calls return the first call's line. */
export function expediteRcuOnce(): string | null {
  once ??= { line: expediteRcuGracePeriods() };
  return once.line;
}
