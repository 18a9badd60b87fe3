// Watches a running sandbox for the limits the kernel does not enforce by itself as a whole: an
// OOM kill inside the run's cgroup (the kernel kills one process; the run as a whole is then
// killed and reported `killed: memory`) and the disk the work dir takes (past the cap the run is
// killed, `killed: disk`), and the entries in it (past the cap, `killed: files`: a script making
// millions of empty files takes no disk, yet its collection and removal would keep the worker busy
// for long after it ended). Each tick is cheap: one small cgroup file read and at most one
// measurement (a du of the bytes and one of the entries, side by side) in flight. It also holds the
// run to its time limit, on the run's own CPU time (`timeout`), and ends a run that leaves the CPU
// the host offers it unused for as long as that limit (`idle`): see cpu-time.ts.
import type { RunCgroup } from './cgroup.js';
import type { RunCpuMeter } from './cpu-time.js';
import { diskUsageBytes, entryCount, smallTreeUsage } from './disk-usage.js';

export type LimitBreach = 'memory' | 'disk' | 'files' | 'timeout' | 'idle';

export interface WatchTargets {
  cgroup: RunCgroup | null;
  /** du's path; null: no disk watch. */
  du: string | null;
  workDir: string;
  diskBytes: number;
  /** Entries the work dir may hold (files, dirs, links, at any depth). */
  maxFiles: number;
  /** The run's CPU time, and its limit (ms). */
  cpu: Pick<RunCpuMeter, 'sample' | 'usedMs' | 'unusedOfferedMs'>;
  cpuLimitMs: number;
}

export const WATCH_INTERVAL_MS = 250;

export class RunWatchdog {
  diskPeakBytes: number | null = null;
  filesPeak: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private measuring: Promise<unknown> | null = null;
  private stopped: Promise<void> | null = null;

  constructor(private readonly targets: WatchTargets, private readonly onBreach: (what: LimitBreach) => void) {}

  start(intervalMs = WATCH_INTERVAL_MS): void {
    this.timer = setInterval(() => this.tick(), intervalMs);
  }

  /** The cgroup saw an OOM kill (checked once more at the end, for runs shorter than a tick). */
  memoryBreached(): boolean {
    return (this.targets.cgroup?.oomKills() ?? 0) > 0;
  }

  /** Reads the run's CPU time; past the limit (or stalled that long on an idle host) it reports the breach. */
  checkCpu(): void {
    const { cpu, cpuLimitMs } = this.targets;
    cpu.sample();
    if (cpu.usedMs >= cpuLimitMs) this.onBreach('timeout');
    else if (cpu.unusedOfferedMs >= cpuLimitMs) this.onBreach('idle');
  }

  private tick(): void {
    this.checkCpu();
    const cg = this.targets.cgroup;
    if (cg) {
      cg.sampleMemory();
      if (this.memoryBreached()) this.onBreach('memory');
    }
    if (this.targets.du && !this.measuring) {
      this.measuring = this.measureDisk().finally(() => {
        this.measuring = null;
      });
    }
  }

  /** Bytes and entries of the work dir (`quick`: walked in-process when small, else du); past a cap it reports the breach. */
  async measureDisk(quick = false): Promise<void> {
    const { du, workDir } = this.targets;
    if (!du) return;
    const small = quick ? smallTreeUsage(workDir) : null;
    const [bytes, entries] = small ? [small.bytes, small.entries] : await Promise.all([diskUsageBytes(du, workDir), entryCount(du, workDir)]);
    if (bytes !== null) {
      this.diskPeakBytes = Math.max(this.diskPeakBytes ?? 0, bytes);
      if (bytes > this.targets.diskBytes) this.onBreach('disk');
    }
    if (entries !== null) {
      this.filesPeak = Math.max(this.filesPeak ?? 0, entries);
      if (entries > this.targets.maxFiles) this.onBreach('files');
    }
  }

  /** Stop ticking; one last disk measurement catches a run that wrote past the cap and exited between ticks. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      if (this.measuring) await this.measuring;
      await this.measureDisk(true);
    })();
    return this.stopped;
  }
}
