// A run's checkpoint directory ↔ the artifact store. At each heartbeat `sync()` looks at the flat
// checkpoint dir; files whose size or mtime changed are streamed (from a confined fd, see
// confined-read.ts) into the store content-addressed, so an unchanged file costs a stat, a
// rewritten-but-identical one no new blob, and the worker's memory never grows with a file's size.
// The manifest (name → ref) is itself an artifact, and its ref travels in the heartbeat.
// Bounded: past `maxBytes` in all or `maxFiles` files the snapshot is skipped (the previous one
// stays valid), and so is one that would take the run's stored checkpoint bytes past
// `maxStoredBytes`; the file count is known from a bounded listing before any file is read, so a
// script that makes 100 000 checkpoint files costs one short listing per heartbeat, not 100 000
// reads. Superseded snapshots are removed (checkpoint-retention.ts). Every skip is a breach: its
// reason and count travel in the heartbeat (`physvec status`) and the run's result (the report).
// `restore()` copies a manifest's files back before a retried run starts.
import { lstat, mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { StreamTooLargeError, type ArtifactStore } from '../../../lib/artifacts/store.js';
import { CheckpointManifest, type CheckpointEntry, type CheckpointLimitBreach, type CheckpointState } from '../../../schemas/run-state.js';
import { readdirUpTo } from '../bounded-readdir.js';
import { recordCheckpointUpload } from '../../../lib/telemetry/metrics.js';
import { CHECKPOINT_RELEASE_AFTER_MS, CheckpointRetention } from './checkpoint-retention.js';
import { openConfinedFile } from './confined-read.js';

export interface CheckpointLimits {
  maxBytes: number;
  maxFiles: number;
  /** All of one run's snapshots in the store together (superseded ones awaiting removal included). */
  maxStoredBytes: number;
  /** How long a superseded snapshot is kept (default CHECKPOINT_RELEASE_AFTER_MS). */
  releaseAfterMs?: number;
}

const MiB = 1024 * 1024;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,127}$/;
/** Entries listed beyond `maxFiles` before a snapshot is skipped unread: room for the runtime's temporary files mid-save. */
const LISTING_SLACK = 64;
/** The stored-bytes cap by default: this many snapshots at the size cap (the current one and one superseded). */
const STORED_SNAPSHOTS = 2;

function positive(v: string | undefined): number | null {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** PHYSVEC_CHECKPOINT_MAX_MB (default 1024), PHYSVEC_CHECKPOINT_MAX_FILES (default 64), PHYSVEC_CHECKPOINT_MAX_STORED_MB (default twice the first). */
export function checkpointLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): CheckpointLimits {
  const mb = positive(env.PHYSVEC_CHECKPOINT_MAX_MB) ?? 1024;
  const files = Number(env.PHYSVEC_CHECKPOINT_MAX_FILES);
  return {
    maxBytes: mb * MiB,
    maxFiles: Number.isInteger(files) && files > 0 ? Math.min(files, 256) : 64,
    maxStoredBytes: (positive(env.PHYSVEC_CHECKPOINT_MAX_STORED_MB) ?? STORED_SNAPSHOTS * mb) * MiB,
  };
}

interface Known {
  size: number;
  mtimeMs: number;
  ref: CheckpointEntry['ref'];
}

class SkipSnapshot extends Error {}

export class CheckpointSync {
  private known = new Map<string, Known>();
  private state: CheckpointState | undefined;
  private realDir: string | null = null;
  private breachSoFar: CheckpointLimitBreach | undefined;
  private readonly retention: CheckpointRetention;

  constructor(
    private readonly store: ArtifactStore,
    private readonly dir: string,
    private readonly limits: CheckpointLimits,
    previous?: CheckpointState,
    /** A snapshot that failed (the store's disk full, say): told, so a run that then fails can be judged (runners/sandbox/host-disk.ts). */
    private readonly onWriteError?: (err: unknown) => void,
  ) {
    this.state = previous ? { ...previous, skipped: undefined } : undefined;
    this.retention = new CheckpointRetention(store, limits.releaseAfterMs ?? CHECKPOINT_RELEASE_AFTER_MS);
  }

  current(): CheckpointState | undefined {
    return this.state;
  }

  /** Every snapshot this attempt skipped, as one line's worth: the latest reason and how many. */
  breach(): CheckpointLimitBreach | undefined {
    return this.breachSoFar;
  }

  /** Create the dir and put `previous`'s files back (copied by the kernel, not through memory); called by the worker before the script starts. */
  async restore(attempt: number): Promise<number> {
    await mkdir(this.dir, { recursive: true });
    this.realDir = await realpath(this.dir);
    if (!this.state) return 0;
    const manifest = CheckpointManifest.parse(await this.store.getJson(this.state.manifest));
    const stamp = Date.now();
    for (const f of manifest.files) {
      if (!NAME.test(f.name)) continue;
      const target = path.join(this.dir, f.name);
      await this.store.copyOut(f.ref, target);
      const st = await lstat(target);
      this.known.set(f.name, { size: st.size, mtimeMs: st.mtimeMs, ref: f.ref });
    }
    this.retention.restored(this.state.manifest.sha256, manifest.files.map((f) => f.ref.sha256), this.state.bytes);
    this.state = { ...this.state, restoredAtAttempt: attempt, at: stamp };
    return manifest.files.length;
  }

  /** One snapshot; returns the state to heartbeat. Never throws (a failed snapshot keeps the last one). */
  async sync(): Promise<CheckpointState | undefined> {
    try {
      await this.release(false);
      await this.snapshot();
    } catch (err) {
      if (err instanceof SkipSnapshot) {
        this.skip(err.message);
      } else {
        this.onWriteError?.(err);
        this.skip(`snapshot failed: ${(err as Error).message}`.slice(0, 300));
      }
    }
    return this.state;
  }

  /** Remove superseded snapshots (`all`: the run is over, none can be restored any more); never throws. */
  async release(all: boolean): Promise<void> {
    const removed = await this.retention.release(all).catch(() => new Set<string>());
    // A file stored for a snapshot that was then skipped: its next snapshot must store it again.
    for (const [name, k] of this.known) if (removed.has(k.ref.sha256)) this.known.delete(name);
  }

  /** The names of the checkpoint files now (bounded listing), or null when there is nothing to snapshot. */
  private async names(): Promise<string[] | null> {
    let names: string[];
    try {
      const listing = await readdirUpTo(this.dir, this.limits.maxFiles + LISTING_SLACK);
      if (listing.more) throw new SkipSnapshot(`more than ${this.limits.maxFiles + LISTING_SLACK} entries, more than the ${this.limits.maxFiles} files allowed (PHYSVEC_CHECKPOINT_MAX_FILES)`);
      names = listing.entries.map((e) => e.name).filter((n) => NAME.test(n) && !n.endsWith('.tmp')).sort();
    } catch (err) {
      if (err instanceof SkipSnapshot) throw err;
      return null;
    }
    if (names.length === 0) return null;
    if (names.length > this.limits.maxFiles) throw new SkipSnapshot(`${names.length} files, more than the ${this.limits.maxFiles} allowed (PHYSVEC_CHECKPOINT_MAX_FILES)`);
    return names;
  }

  private tooLarge(): SkipSnapshot {
    return new SkipSnapshot(`over ${Math.round(this.limits.maxBytes / MiB)} MiB (PHYSVEC_CHECKPOINT_MAX_MB)`);
  }

  private async snapshot(): Promise<void> {
    if (this.realDir === null) return;
    const names = await this.names();
    if (!names) return;
    // `unchanged`: same size and mtime as when last stored; `before`: what the name held then.
    const files: { name: string; size: number; mtimeMs: number; unchanged: boolean; before: Known | undefined }[] = [];
    let total = 0;
    let changedBytes = 0;
    for (const name of names) {
      const st = await lstat(path.join(this.dir, name)).catch(() => null);
      if (!st || !st.isFile()) continue;
      total += st.size;
      if (total > this.limits.maxBytes) throw this.tooLarge();
      const known = this.known.get(name);
      const unchanged = known !== undefined && known.size === st.size && known.mtimeMs === st.mtimeMs;
      if (!unchanged) changedBytes += st.size;
      files.push({ name, size: st.size, mtimeMs: st.mtimeMs, unchanged, before: known });
    }
    if (this.retention.storedBytes() + changedBytes > this.limits.maxStoredBytes) {
      throw new SkipSnapshot(`this run's stored checkpoints would pass ${Math.round(this.limits.maxStoredBytes / MiB)} MiB (PHYSVEC_CHECKPOINT_MAX_STORED_MB; ${Math.round(this.retention.storedBytes() / MiB)} MiB stored, ${Math.round(changedBytes / MiB)} MiB changed)`);
    }
    const entries: CheckpointEntry[] = [];
    let uploads = 0;
    let uploadedBytes = 0;
    for (const f of files) {
      if (f.unchanged) {
        entries.push({ name: f.name, ref: f.before!.ref });
        continue;
      }
      const plain = await this.upload(f.name, this.limits.maxBytes - (total - f.size));
      if (!plain) continue;
      if (f.before?.ref.sha256 !== plain.sha256) {
        uploads += 1;
        uploadedBytes += plain.bytes;
      }
      this.known.set(f.name, { size: f.size, mtimeMs: f.mtimeMs, ref: plain });
      entries.push({ name: f.name, ref: plain });
    }
    if (entries.length === 0) return;
    await this.adopt(entries, uploads, uploadedBytes);
  }

  /** One file streamed into the store from a confined fd; null if it is not a plain file of the dir (any more). */
  private async upload(name: string, maxBytes: number): Promise<CheckpointEntry['ref'] | null> {
    const opened = await openConfinedFile(path.join(this.dir, name), maxBytes, path.join(this.realDir!, name));
    if (!opened.ok) {
      if (opened.reason === 'too-large') throw this.tooLarge();
      return null;
    }
    try {
      const ref = await this.store.putStream(opened.handle.createReadStream({ start: 0, autoClose: false }), { name }, maxBytes);
      this.retention.stored(ref);
      const { created: _created, ...plain } = ref;
      return plain;
    } catch (err) {
      if (err instanceof StreamTooLargeError) throw this.tooLarge();
      throw err;
    } finally {
      await opened.handle.close().catch(() => undefined);
    }
  }

  private async adopt(entries: CheckpointEntry[], uploads: number, uploadedBytes: number): Promise<void> {
    if (uploads > 0) recordCheckpointUpload(uploadedBytes);
    const body = Buffer.from(JSON.stringify({ files: entries } satisfies CheckpointManifest, null, 2));
    const stored = await this.store.putStream(Readable.from([body]), { name: 'checkpoint-manifest.json', mediaType: 'application/json' });
    this.retention.stored(stored);
    const { created: _created, ...manifest } = stored;
    // Only the files of the snapshot just taken can be unchanged next time.
    const names = new Set(entries.map((e) => e.name));
    for (const name of [...this.known.keys()]) if (!names.has(name)) this.known.delete(name);
    if (manifest.sha256 === this.state?.manifest.sha256) {
      this.state = { ...this.state, skipped: undefined };
      return;
    }
    this.retention.adopt(manifest.sha256, entries.map((e) => e.ref.sha256));
    this.state = {
      manifest,
      files: entries.length,
      bytes: entries.reduce((s, e) => s + e.ref.bytes, 0),
      uploads: (this.state?.uploads ?? 0) + uploads,
      uploadedBytes: (this.state?.uploadedBytes ?? 0) + uploadedBytes,
      at: Date.now(),
      ...(this.state?.restoredAtAttempt !== undefined ? { restoredAtAttempt: this.state.restoredAtAttempt } : {}),
    };
  }

  private skip(why: string): void {
    if (this.state) this.state = { ...this.state, skipped: why };
    this.breachSoFar = { reason: why, skipped: (this.breachSoFar?.skipped ?? 0) + 1 };
  }
}
