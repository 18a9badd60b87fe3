// One sandbox run's live state for its heartbeats: the latest progress values and checkpoint.
// `attach()` runs before the script starts (restores the previous attempt's checkpoint); `poll()`
// runs at each heartbeat and never overlaps itself (a slow upload just skips a beat's poll);
// `details()` is what the heartbeat carries now.
import type { ArtifactStore } from '../../../lib/artifacts/store.js';
import { RunStateDetails, type SimulationProgress } from '../../../schemas/run-state.js';
import { CheckpointSync, checkpointLimitsFromEnv, type CheckpointLimits } from './checkpoint-sync.js';
import { runStatePaths } from './paths.js';
import { readProgress } from './progress-read.js';

/** The run-state part of earlier heartbeat details (anything else, or malformed, is ignored). */
export function previousRunState(details: unknown): RunStateDetails {
  const parsed = RunStateDetails.safeParse(details ?? {});
  return parsed.success ? parsed.data : {};
}

export class RunStateWatcher {
  private sync: CheckpointSync | null = null;
  private progressFile: string | null = null;
  private progress: SimulationProgress | undefined;
  private polling: Promise<void> | null = null;

  constructor(
    private readonly store: ArtifactStore,
    private readonly previous: RunStateDetails,
    private readonly limits: CheckpointLimits = checkpointLimitsFromEnv(),
  ) {
    this.progress = previous.progress;
  }

  /** Before the script starts: make the checkpoint dir and restore the previous attempt's files into it. */
  async attach(privateDir: string, attempt: number): Promise<number> {
    const paths = runStatePaths(privateDir);
    this.progressFile = paths.progressFile;
    this.sync = new CheckpointSync(this.store, paths.checkpointDir, this.limits, this.previous.checkpoint);
    return this.sync.restore(attempt);
  }

  /** Read progress and snapshot the checkpoint; resolves when done (or at once if a poll is under way). */
  poll(): Promise<void> {
    if (!this.sync || !this.progressFile) return Promise.resolve();
    this.polling ??= (async () => {
      const p = await readProgress(this.progressFile!);
      if (p) this.progress = p;
      await this.sync!.sync();
    })().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  details(): RunStateDetails {
    const checkpoint = this.sync?.current() ?? this.previous.checkpoint;
    return {
      ...(this.progress ? { progress: this.progress } : {}),
      ...(checkpoint ? { checkpoint } : {}),
    };
  }

  /** Why no checkpoint was taken at all, if the script wrote one that broke the bounds. */
  skipped(): string | undefined {
    return this.sync?.current()?.skipped ?? this.sync?.skippedBeforeFirst;
  }
}
