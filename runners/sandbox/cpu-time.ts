// What a run's time limit measures: the CPU time of the run itself (all its processes and threads,
// exited ones included), not the wall clock, so a busy host slows a run down without killing it.
// Read from the run's cgroup (v1 cpuacct.usage, v2 cpu.stat usage_usec) where it has one; else
// summed over the run's process tree from /proc (utime + stime + the children it waited for: a
// child that exited and was reaped by a process outside the tree is lost, so this can only err low).
//
// A script that blocks (sleep, a lock, input) uses no CPU, so the CPU limit never ends it. Such a
// run is the script's fault only when the host offered it CPU it did not take: `offered` sums, tick
// by tick, the share of one core the run could have had (the host's idle cores plus what the run
// itself used, at most one core); once offered − used reaches the CPU limit, the script was given a
// whole limit's worth of idle CPU and left it unused — it is stalled (`killedReason: 'idle'`). On a
// busy host nothing is offered and the wall-clock guard (run.ts) ends it as an infrastructure fault.
// Two things keep a busy run from looking stalled: only the idle time of the cores the run may use
// counts (its processes' affinity: a run pinned to a busy core is not offered the idle one), and a
// tick in which the run's threads waited on the run queue offers nothing beyond what they got (the
// scheduler's own record, /proc/<pid>/task/<tid>/schedstat) — a runnable script is not stalled.
import { readdirSync, readFileSync } from 'node:fs';
import type { RunCgroup } from './cgroup.js';
import { descendantsOf } from './process-tree.js';

/** Linux reports /proc times in USER_HZ ticks, 100 per second on every architecture it supports. */
const USER_HZ = 100;

/** utime + stime + cutime + cstime of one process, in ms (null: gone). */
function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, utime field 14.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(rest[i] ?? 0), 0);
    return (ticks * 1000) / USER_HZ;
  } catch {
    return null;
  }
}

/** Each core's idle and total CPU time so far (USER_HZ ticks; iowait counts as busy), by core number. */
function coreCpuTicks(): Map<number, { idle: number; total: number }> | null {
  try {
    const cores = new Map<number, { idle: number; total: number }>();
    for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
      const m = /^cpu(\d+)\s+(.*)$/.exec(line);
      if (!m) continue;
      const fields = m[2]!.trim().split(/\s+/).slice(0, 8).map(Number);
      cores.set(Number(m[1]), { idle: fields[3] ?? 0, total: fields.reduce((a, b) => a + b, 0) });
    }
    return cores.size > 0 ? cores : null;
  } catch {
    return null;
  }
}

/** "0-3,6" → [0, 1, 2, 3, 6]. */
export function parseCpuList(list: string): number[] {
  const out: number[] = [];
  for (const part of list.trim().split(',')) {
    const [a, b] = part.split('-').map(Number);
    if (a === undefined || Number.isNaN(a)) continue;
    for (let c = a; c <= (b ?? a); c++) out.push(c);
  }
  return out;
}

/** The cores the given processes may run on (union of their affinities) and the ns their threads have waited on a run queue. */
function schedulingOf(pids: number[]): { cores: Set<number> | null; waitNs: number } {
  let cores: Set<number> | null = null;
  let waitNs = 0;
  for (const pid of pids) {
    try {
      const allowed = /^Cpus_allowed_list:\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (allowed) for (const c of parseCpuList(allowed)) (cores ??= new Set()).add(c);
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        waitNs += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1] ?? 0);
      }
    } catch {
      // The process exited while we looked.
    }
  }
  return { cores, waitNs };
}

/** Idle cores (in units of one core) among `allowed` (all when null) between two readings. */
export function idleCoresBetween(
  before: Map<number, { idle: number; total: number }>,
  after: Map<number, { idle: number; total: number }>,
  allowed: Set<number> | null,
): number {
  let idle = 0;
  for (const [core, now] of after) {
    if (allowed && !allowed.has(core)) continue;
    const then = before.get(core);
    if (!then || now.total <= then.total) continue;
    idle += (now.idle - then.idle) / (now.total - then.total);
  }
  return idle;
}

export class RunCpuMeter {
  /** The run's CPU time at the last reading (ms); kept as a running maximum, since the /proc sum can drop as processes exit. */
  usedMs = 0;
  /** CPU (ms) the host could have given the run while it ran (see the header). */
  offeredMs = 0;
  private lastWall = performance.now();
  private lastUsed = 0;
  private lastCores = coreCpuTicks();
  private lastWaitNs: number | null = null;

  constructor(private readonly cgroup: RunCgroup | null, private readonly rootPid: () => number | undefined) {}

  /** Read the run's CPU time and the host's idle time since the last call. */
  sample(): void {
    const now = performance.now();
    const pids = this.runPids();
    this.usedMs = Math.max(this.usedMs, this.readUsedMs(pids));
    const cores = coreCpuTicks();
    const sched = schedulingOf(pids);
    const dtMs = now - this.lastWall;
    if (cores && this.lastCores && dtMs > 0) {
      const runMs = this.usedMs - this.lastUsed;
      // Waiting on a run queue for a tenth of the tick: the run wanted CPU the host did not give.
      const waitedMs = this.lastWaitNs === null ? 0 : Math.max(0, sched.waitNs - this.lastWaitNs) / 1e6;
      const idleCores = waitedMs > dtMs / 10 ? 0 : idleCoresBetween(this.lastCores, cores, sched.cores);
      this.offeredMs += Math.min(dtMs, idleCores * dtMs + runMs);
    }
    this.lastWall = now;
    this.lastUsed = this.usedMs;
    this.lastCores = cores;
    this.lastWaitNs = sched.waitNs;
  }

  /** CPU the host offered the run that it did not use (ms). */
  get unusedOfferedMs(): number {
    return Math.max(0, this.offeredMs - this.usedMs);
  }

  private runPids(): number[] {
    if (this.cgroup) return this.cgroup.pids();
    const root = this.rootPid();
    return root === undefined ? [] : [root, ...descendantsOf(root)];
  }

  private readUsedMs(pids: number[]): number {
    const fromCgroup = this.cgroup?.cpuUsageMs() ?? null;
    if (fromCgroup !== null) return fromCgroup;
    return pids.reduce((sum, pid) => sum + (processCpuMs(pid) ?? 0), 0);
  }
}
