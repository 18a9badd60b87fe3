// A run's heartbeat, from the moment it holds a work dir until everything is released — not only
// while its script runs. After a script that left a large tree behind, storing its output,
// collecting its files and removing its work dir can take minutes; with no beat then, the server
// would time the attempt out and run the whole script again. `phase` tells the beats apart.
import type { SandboxHeartbeat, SandboxPhase } from '../../schemas/sandbox.js';

export interface OutputCounts {
  totalBytes: number;
}

export class RunHeartbeat {
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout | null;
  private phase: SandboxPhase = 'preparing';
  private output: { stdout: OutputCounts; stderr: OutputCounts } | null = null;

  constructor(private readonly runId: string, private readonly sink: ((info: SandboxHeartbeat) => void) | undefined, intervalMs: number) {
    this.timer = sink ? setInterval(() => this.beat(), intervalMs) : null;
  }

  /** The script's streams, whose sizes the beats report. */
  countOutput(stdout: OutputCounts, stderr: OutputCounts): void {
    this.output = { stdout, stderr };
  }

  /** Enter `phase`, with a beat at once (the SDK throttles what reaches the server). */
  enter(phase: SandboxPhase): void {
    if (phase === this.phase) return;
    this.phase = phase;
    this.beat();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private beat(): void {
    try {
      this.sink?.({
        runId: this.runId,
        phase: this.phase,
        elapsedMs: Math.round(performance.now() - this.started),
        stdoutBytes: this.output?.stdout.totalBytes ?? 0,
        stderrBytes: this.output?.stderr.totalBytes ?? 0,
      });
    } catch {
      // A failing heartbeat sink must not take the run down.
    }
  }
}
