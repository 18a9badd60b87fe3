// One sandbox run's live state for its heartbeats: the latest progress values and checkpoint.
// `attach()` runs before the script starts (restores the previous attempt's checkpoint); `poll()`
// runs at each heartbeat and never overlaps itself (a request during a poll runs one more after it);
// `details()` is what the heartbeat carries now. `watchCheckpoints()` snapshots as soon as the script
// puts a checkpoint file in place, instead of at the next heartbeat: a worker killed between the
// two would otherwise lose the newest checkpoint (one DMRG sweep of ~12 s at L=160, chi=200; the
// drills measured it), and the resumed run would redo it.
import { watch, type FSWatcher } from 'node:fs';
import type { ArtifactStore } from '../../../lib/artifacts/store.js';
import { RunStateDetails, type CheckpointLimitBreach, type SimulationProgress } from '../../../schemas/run-state.js';
import { CheckpointSync, checkpointLimitsFromEnv, type CheckpointLimits } from './checkpoint-sync.js';
import { runStatePaths } from './paths.js';
import { readProgress } from './progress-read.js';

const SETTLE_MS = 100;
const MIN_CHANGE_INTERVAL_MS = 1000;
const MAX_CHANGE_WAIT_MS = 1000;

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
  private again = false;
  private fsWatcher: FSWatcher | null = null;
  private checkpointDir: string | null = null;
  private changeTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: ArtifactStore,
    private readonly previous: RunStateDetails,
    private readonly limits: CheckpointLimits = checkpointLimitsFromEnv(),
    /** Told of every failed checkpoint snapshot (see CheckpointSync). */
    private readonly onWriteError?: (err: unknown) => void,
  ) {
    this.progress = previous.progress;
  }

  /** Before the script starts: make the checkpoint dir and restore the previous attempt's files into it. */
  async attach(privateDir: string, attempt: number): Promise<number> {
    const paths = runStatePaths(privateDir);
    this.progressFile = paths.progressFile;
    this.checkpointDir = paths.checkpointDir;
    this.sync = new CheckpointSync(this.store, paths.checkpointDir, this.limits, this.previous.checkpoint, this.onWriteError);
    return this.sync.restore(attempt);
  }

  /**
   * Read progress and snapshot the checkpoint; resolves when done. Asked during a poll, it resolves
   * after one more, which sees what changed since the first one read the directory.
   */
  poll(): Promise<void> {
    if (!this.sync || !this.progressFile) return Promise.resolve();
    if (this.polling) {
      this.again = true;
      return this.polling;
    }
    const once = async () => {
      const p = await readProgress(this.progressFile!);
      if (p) this.progress = p;
      await this.sync!.sync();
    };
    this.polling = (async () => {
      do {
        this.again = false;
        await once();
      } while (this.again);
    })().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  /**
   * After attach(): when a checkpoint file is renamed into place (the runtime writes a dot-file and
   * renames it) or rewritten, snapshot at once and call `onSnapshot` with the new details. Until
   * close(). Best effort: without inotify the heartbeat's poll still takes every snapshot.
   */
  watchCheckpoints(onSnapshot: () => void): void {
    if (!this.checkpointDir || this.fsWatcher) return;
    let lastAt = 0;
    let firstChangeAt = 0;
    const schedule = () => {
      // Once the directory has been quiet for SETTLE_MS: a library that writes its file in place (a
      // PySCF chkfile, many writes per save) is read after its burst, not halfway through, and the
      // progress the runtime writes right after a save joins the same beat. At most one such
      // snapshot a second, and at the latest a second after the first unsnapshotted change: a run
      // that saves without pause (NetKet every 10 steps, ~0.1 s apart) is never quiet.
      const now = Date.now();
      if (this.changeTimer) {
        if (now - firstChangeAt + SETTLE_MS > MAX_CHANGE_WAIT_MS) return;
        clearTimeout(this.changeTimer);
      } else {
        firstChangeAt = now;
      }
      const delay = Math.max(SETTLE_MS, lastAt + MIN_CHANGE_INTERVAL_MS - now);
      this.changeTimer = setTimeout(() => {
        this.changeTimer = null;
        lastAt = Date.now();
        void this.poll().then(onSnapshot, () => undefined);
      }, delay);
      this.changeTimer.unref();
    };
    try {
      this.fsWatcher = watch(this.checkpointDir, { persistent: false }, (_event, name) => {
        if (typeof name === 'string' && (name.startsWith('.') || name.endsWith('.tmp'))) return;
        schedule();
      });
      this.fsWatcher.on('error', () => this.close());
    } catch {
      this.fsWatcher = null;
    }
  }

  close(): void {
    this.fsWatcher?.close();
    this.fsWatcher = null;
    if (this.changeTimer) clearTimeout(this.changeTimer);
    this.changeTimer = null;
  }

  details(): RunStateDetails {
    const checkpoint = this.sync?.current() ?? this.previous.checkpoint;
    const breach = this.sync?.breach() ?? this.previous.checkpointLimit;
    return {
      ...(this.progress ? { progress: this.progress } : {}),
      ...(checkpoint ? { checkpoint } : {}),
      ...(breach ? { checkpointLimit: breach } : {}),
    };
  }

  /** The run's checkpoint limit breaches as one line (the result's checkpointSkipped), if there were any. */
  skipped(): string | undefined {
    const breach = this.sync?.breach() ?? this.previous.checkpointLimit;
    return breach ? checkpointBreachLine(breach) : undefined;
  }

  /**
   * Once the run is over (after close()): wait for a snapshot in flight, then remove superseded
   * snapshots — all of them if the run succeeded (nothing will restore them), else those whose
   * successor has surely reached the server.
   */
  async finish(succeeded: boolean): Promise<void> {
    await this.polling?.catch(() => undefined);
    await this.sync?.release(succeeded);
  }
}

/** "over 1024 MiB (PHYSVEC_CHECKPOINT_MAX_MB); 3 snapshots skipped". */
export function checkpointBreachLine(b: CheckpointLimitBreach): string {
  return `${b.reason}; ${b.skipped} snapshot${b.skipped === 1 ? '' : 's'} skipped`;
}
