// What a run's checkpoint costs the store, and which of its blobs may go. A snapshot supersedes
// the one before it; once the newer manifest has surely reached the server in a heartbeat
// (heartbeats are sent at least every second, temporal-config/timeouts.ts HEARTBEAT_THROTTLE, and
// each snapshot is heartbeated at once), the older one can never be restored, and the files only
// it referenced are removed. Only blobs this attempt itself wrote (the store did not have them)
// are ever removed: content addressing means any other blob may be someone else's too. The
// restored snapshot of an earlier attempt is counted, never removed.
import type { ArtifactStore } from '../../../lib/artifacts/store.js';

/** How long a superseded snapshot is kept: well past the 1 s within which its successor's heartbeat is sent. */
export const CHECKPOINT_RELEASE_AFTER_MS = 5_000;

interface Kept {
  manifest: string;
  files: string[];
  supersededAt: number | null;
}

export class CheckpointRetention {
  /** Blobs this attempt wrote and still holds: sha → bytes. */
  private readonly owned = new Map<string, number>();
  private kept: Kept[] = [];
  private restoredBytes = 0;

  constructor(
    private readonly store: ArtifactStore,
    private readonly releaseAfterMs: number,
  ) {}

  /** The earlier attempt's snapshot this one started from. */
  restored(manifest: string, files: string[], bytes: number): void {
    this.kept.push({ manifest, files, supersededAt: null });
    this.restoredBytes = bytes;
  }

  /** A blob was stored (by this attempt if `created`). */
  stored(ref: { sha256: string; bytes: number; created: boolean }): void {
    if (ref.created) this.owned.set(ref.sha256, ref.bytes);
  }

  /** Bytes of this run's checkpoints in the store now (restored snapshot included). */
  storedBytes(): number {
    let sum = this.restoredBytes;
    for (const b of this.owned.values()) sum += b;
    return sum;
  }

  /** `manifest` is the run's checkpoint now; the one before it is superseded from `now`. */
  adopt(manifest: string, files: string[], now = Date.now()): void {
    for (const k of this.kept) k.supersededAt ??= now;
    this.kept.push({ manifest, files, supersededAt: null });
  }

  /**
   * Remove what no kept snapshot references: snapshots superseded `releaseAfterMs` ago (`all`:
   * every superseded one, once the run is over), and blobs of snapshots never completed. Returns
   * the shas removed.
   */
  async release(all = false, now = Date.now()): Promise<Set<string>> {
    this.kept = this.kept.filter((k) => k.supersededAt === null || (!all && now - k.supersededAt < this.releaseAfterMs));
    const live = new Set(this.kept.flatMap((k) => [k.manifest, ...k.files]));
    const removed = new Set<string>();
    for (const sha of [...this.owned.keys()]) {
      if (live.has(sha)) continue;
      await this.store.remove(sha);
      this.owned.delete(sha);
      removed.add(sha);
    }
    return removed;
  }
}
