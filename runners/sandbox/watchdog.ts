// Watches a running sandbox for the limits the kernel does not enforce by itself as a whole: an
// OOM kill inside the run's cgroup (the kernel kills one process; the run as a whole is then
// killed and reported `killed: memory`) and the disk the work dir takes (past the cap the run is
// killed, `killed: disk`). Each tick is cheap: one small cgroup file read and at most one du in
// flight.
import type { RunCgroup } from './cgroup.js';
import { diskUsageBytes, smallTreeUsageBytes } from './disk-usage.js';

export type LimitBreach = 'memory' | 'disk';

export interface WatchTargets {
  cgroup: RunCgroup | null;
  /** du's path; null: no disk watch. */
  du: string | null;
  workDir: string;
  diskBytes: number;
}

export const WATCH_INTERVAL_MS = 250;

export class RunWatchdog {
  diskPeakBytes: number | null = null;
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

  private tick(): void {
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

  /** One du of the work dir (`quick`: walked in-process when small); past the cap it reports the breach. */
  async measureDisk(quick = false): Promise<void> {
    if (!this.targets.du) return;
    const bytes = (quick ? await smallTreeUsageBytes(this.targets.workDir) : null) ?? (await diskUsageBytes(this.targets.du, this.targets.workDir));
    if (bytes === null) return;
    this.diskPeakBytes = Math.max(this.diskPeakBytes ?? 0, bytes);
    if (bytes > this.targets.diskBytes) this.onBreach('disk');
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
