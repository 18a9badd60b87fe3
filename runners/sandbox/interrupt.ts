// A run stopped for time (its CPU limit, or stalled) is first interrupted, so the script can say
// where it was: SIGINT makes Python raise KeyboardInterrupt and print its traceback (Julia an
// InterruptException with its stack trace), which the verifiers read like any failure's (a unit test
// stuck in the function under test is that function's failure, one stuck in its entry point is the
// harness's). Only the script's own processes get it: the chain's wrappers (bwrap, the cgroup-join
// and holder shells) would end the run at once, before the traceback is written. After
// INTERRUPT_GRACE_MS the run is killed whatever it does (a script that ignores SIGINT or is inside
// a long C call prints nothing, and is judged as before).
import { readFileSync } from 'node:fs';
import type { RunCgroup } from './cgroup.js';
import { descendantsOf } from './process-tree.js';

/** Wall time a interrupted script gets to print its traceback before the kill. */
export const INTERRUPT_GRACE_MS = 2_000;

const WRAPPERS = new Set(['bwrap', 'sh', 'dash', 'bash', 'prlimit', 'setpriv']);

function commOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/** SIGINT to the run's non-wrapper processes; how many were signalled (0: kill at once). */
export function interruptScript(rootPid: number, cgroup: RunCgroup | null): number {
  const pids = cgroup ? cgroup.pids() : [rootPid, ...descendantsOf(rootPid)];
  let sent = 0;
  for (const pid of pids) {
    const comm = commOf(pid);
    if (comm === null || WRAPPERS.has(comm)) continue;
    try {
      process.kill(pid, 'SIGINT');
      sent++;
    } catch {
      // Already gone.
    }
  }
  return sent;
}
