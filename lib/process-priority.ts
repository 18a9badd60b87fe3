// CPU priority of physvec's own processes on a shared host (issue 24.3, 24.4). A worker's own work is
// small (polling, heartbeats, workflow tasks, snapshots) but latency-critical: on a 2-core host at
// load 40–80 a worker at the neighbours' priority took 64–214 s to start polling and missed
// heartbeats while alive. So a worker (and the dev server `physvec` starts) runs at a higher
// priority than its neighbours when the host permits it (root or CAP_SYS_NICE), and everything it
// starts for a script — sandbox chains and the warm python they fork from — goes back to the
// neighbours' priority, so a script's CPU is shared with the neighbours as before.
//
// On Linux a nice value belongs to a thread, and with autogroup (kernel.sched_autogroup_enabled=1)
// it only orders threads of one session: between sessions the kernel weighs each session's
// autogroup by the autogroup's own nice. So a raise sets every thread of the process (threads made
// later inherit it) and, with autogroup on, the process's autogroup — shared by its session, which is
// why a worker is best started in a session of its own (a service manager, `setsid`).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { z } from 'zod';
import { BadInputError } from './errors.js';

/** The nice value physvec's own processes ask for unless PHYSVEC_WORKER_NICE / --nice says otherwise. */
// -20, not -10: at load 90 on 2 cores (90 sessions of hogs) an autogroup at -10 (weight 9548 against
// 90 × 1024) gets ~0.2 of a core when it wants it, and the drill saw heartbeats and workflow tasks
// late by > 20 s; at -20 (88761) ~1 core. The worker uses it only for its own short work.
export const DEFAULT_WORKER_NICE = -20;
export const WORKER_NICE_ENV = 'PHYSVEC_WORKER_NICE';

const NiceSetting = z.union([z.literal('off'), z.coerce.number().int().min(-20).max(19)]);

/** The configured nice value, or null for "leave the priority alone" (`off`). */
export function workerNiceSetting(raw: string | undefined = process.env[WORKER_NICE_ENV]): number | null {
  if (raw === undefined || raw.trim() === '') return DEFAULT_WORKER_NICE;
  const r = NiceSetting.safeParse(raw.trim());
  if (!r.success) throw new BadInputError(`${WORKER_NICE_ENV} / --nice: expected a nice value from -20 to 19 or "off", got "${raw}"`);
  return r.data === 'off' ? null : r.data;
}

export type PriorityOutcome =
  | { raised: true; nice: number; from: number; autogroup: boolean }
  | { raised: false; why: string };

const AUTOGROUP_SWITCH = '/proc/sys/kernel/sched_autogroup_enabled';

function autogroupEnabled(): boolean {
  try {
    return readFileSync(AUTOGROUP_SWITCH, 'utf8').trim() === '1';
  } catch {
    return false;
  }
}

/** The autogroup nice of `pid` ("/autogroup-14 nice 0"), or null where there is none. */
export function autogroupNice(pid: number | 'self' = 'self'): number | null {
  try {
    const m = /nice\s+(-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

function trySetPriority(tid: number, nice: number): void {
  try {
    os.setPriority(tid, nice);
  } catch {
    /* gone */
  }
}

function threadsOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number).filter((t) => Number.isInteger(t) && t > 0);
  } catch {
    return [pid];
  }
}

/**
 * Give process `pid` (default: this one) nice value `nice` on all its threads and, with autogroup
 * on, on its autogroup. Never throws: a host that does not permit it leaves the priority as it was
 * and says why. The two are separate: a child of a raised process inherits its threads' nice but
 * starts a session — an autogroup — of its own at nice 0 when detached (the dev server a raised
 * drill or `physvec demo` starts): with 40 neighbours' sessions it then got 1/41 of the CPU, its
 * threads' -20 notwithstanding, and waited up to 116 s for a CPU in a 5 s window.
 */
export function raiseProcessPriority(nice: number, pid: number = process.pid): PriorityOutcome {
  const from = os.getPriority(pid);
  let raisedThreads = false;
  if (nice < from) {
    try {
      // Twice: a thread started while the first pass ran was made by a thread not yet raised.
      for (let pass = 0; pass < 2; pass++) for (const tid of threadsOf(pid)) os.setPriority(tid, nice);
      raisedThreads = true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as { info?: { code?: string } }).info?.code;
      for (const tid of threadsOf(pid)) trySetPriority(tid, from);
      return { raised: false, why: code === 'EACCES' || code === 'EPERM' ? 'not permitted (needs root or CAP_SYS_NICE)' : (err as Error).message };
    }
  } else if (nice === from) {
    // Threads made before the process's main thread was raised (bin/physvec.js raises early).
    for (const tid of threadsOf(pid)) trySetPriority(tid, nice);
  }
  let autogroup = false;
  let raisedAutogroup = false;
  const groupNice = autogroupEnabled() ? autogroupNice(pid) : null;
  if (groupNice !== null && groupNice > nice) {
    try {
      writeFileSync(`/proc/${pid}/autogroup`, String(nice));
      autogroup = raisedAutogroup = true;
    } catch {
      /* threads are raised within the session; between sessions it stays at the neighbours' level */
    }
  } else if (groupNice !== null && groupNice === nice) {
    autogroup = true;
  }
  // This process raised early by bin/physvec.js, before the CLI loaded: the neighbours' nice it recorded.
  const early = pid === process.pid ? Number(process.env[NEIGHBOUR_NICE_ENV] || Number.NaN) : Number.NaN;
  if (!raisedThreads) {
    if (nice === from && Number.isInteger(early) && early > nice) return { raised: true, nice, from: early, autogroup };
    if (!raisedAutogroup) return { raised: false, why: `it already runs at nice ${from}` };
  }
  if (raisedThreads && pid === process.pid && !process.env[NEIGHBOUR_NICE_ENV]) process.env[NEIGHBOUR_NICE_ENV] = String(from);
  return { raised: true, nice, from, autogroup };
}

/**
 * The nice value of the neighbours: what the first raised process had before it raised itself. In
 * the environment, so a child of a raised worker (the knowledge-base build) starts its own sandbox
 * runs at the neighbours' priority too.
 */
const NEIGHBOUR_NICE_ENV = 'PHYSVEC_NEIGHBOUR_NICE';

/**
 * `argv` prefixed with `nice -n <k>` so the process it starts runs at the neighbours' nice value
 * again (nice is relative and inherited; lowering a priority needs no privilege). Unchanged when this
 * process never raised itself.
 */
export function atNeighbourPriority(argv: readonly string[]): string[] {
  const delta = aboveNeighbours();
  return delta > 0 ? [NICE_BIN, '-n', String(delta), ...argv] : [...argv];
}

/** How far this process's nice is above the neighbours' (0 when it never raised itself). */
function aboveNeighbours(): number {
  const neighbourNice = Number(process.env[NEIGHBOUR_NICE_ENV] || Number.NaN);
  return Number.isInteger(neighbourNice) ? Math.max(0, neighbourNice - os.getPriority()) : 0;
}

/** This process (or the worker that started it) raised its priority above the neighbours'. */
export function workerRaised(): boolean {
  return aboveNeighbours() > 0;
}

const NICE_BIN = ['/usr/bin/nice', '/bin/nice'].find((p) => existsSync(p)) ?? 'nice';

/**
 * Give the session that process `pid` leads (a child just started in a session of its own, which
 * inherited this process's thread nice) this process's autogroup nice too, so all of it runs at the
 * worker's priority. For physvec's own set-up processes only — never for a process that runs a
 * script. Never throws; false when there was nothing to do or it was not permitted.
 */
export function shareWorkerPriority(pid: number): boolean {
  if (!workerRaised() || !autogroupEnabled()) return false;
  const own = autogroupNice('self');
  if (own === null || own === autogroupNice(pid)) return false;
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(own));
    return true;
  } catch {
    return false;
  }
}

/** One line for the operator: what priority the worker runs at, and what to do when it could not be raised. */
export function describePriority(o: PriorityOutcome | null): string {
  if (o === null) return `priority left as it is (${WORKER_NICE_ENV}=off)`;
  if (o.raised) return `runs at nice ${o.nice} (was ${o.from}${o.autogroup ? '; session autogroup too' : ''}); sandbox scripts at nice ${o.from}`;
  return `priority not raised: ${o.why}; on a busy host heartbeats may be late (run as root / with CAP_SYS_NICE, or ${WORKER_NICE_ENV}=off to silence this)`;
}

/** Raise this process as configured; null when the setting is `off`. */
export function raiseOwnPriority(setting: number | null = workerNiceSetting()): PriorityOutcome | null {
  return setting === null ? null : raiseProcessPriority(setting);
}
