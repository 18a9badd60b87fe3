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
import { readFileSync } from 'node:fs';
import os from 'node:os';
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

/** The host's idle and total CPU time so far (USER_HZ ticks over all cores; iowait counts as busy). */
function hostCpuTicks(): { idle: number; total: number } | null {
  try {
    const first = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const fields = first.trim().split(/\s+/).slice(1, 9).map(Number);
    return { idle: fields[3] ?? 0, total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

export class RunCpuMeter {
  /** The run's CPU time at the last reading (ms); kept as a running maximum, since the /proc sum can drop as processes exit. */
  usedMs = 0;
  /** CPU (ms) the host could have given the run while it ran (see the header). */
  offeredMs = 0;
  private lastWall = performance.now();
  private lastUsed = 0;
  private lastHost = hostCpuTicks();
  private readonly cores = os.availableParallelism();

  constructor(private readonly cgroup: RunCgroup | null, private readonly rootPid: () => number | undefined) {}

  /** Read the run's CPU time and the host's idle time since the last call. */
  sample(): void {
    const now = performance.now();
    this.usedMs = Math.max(this.usedMs, this.readUsedMs());
    const host = hostCpuTicks();
    const dtMs = now - this.lastWall;
    if (host && this.lastHost && host.total > this.lastHost.total && dtMs > 0) {
      const idleCores = ((host.idle - this.lastHost.idle) / (host.total - this.lastHost.total)) * this.cores;
      const runCores = (this.usedMs - this.lastUsed) / dtMs;
      this.offeredMs += Math.min(1, idleCores + runCores) * dtMs;
    }
    this.lastWall = now;
    this.lastUsed = this.usedMs;
    this.lastHost = host;
  }

  /** CPU the host offered the run that it did not use (ms). */
  get unusedOfferedMs(): number {
    return Math.max(0, this.offeredMs - this.usedMs);
  }

  private readUsedMs(): number {
    const fromCgroup = this.cgroup?.cpuUsageMs() ?? null;
    if (fromCgroup !== null) return fromCgroup;
    const root = this.rootPid();
    const pids = this.cgroup ? this.cgroup.pids() : root === undefined ? [] : [root, ...descendantsOf(root)];
    return pids.reduce((sum, pid) => sum + (processCpuMs(pid) ?? 0), 0);
  }
}
