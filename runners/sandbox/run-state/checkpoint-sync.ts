// A run's checkpoint directory ↔ the artifact store. At each heartbeat `sync()` looks at the flat
// checkpoint dir; files whose size or mtime changed are read (confined, see confined-read.ts) and
// stored content-addressed, so an unchanged file costs a stat and a rewritten-but-identical one no
// upload. The manifest (name → ref) is itself an artifact, and its ref travels in the heartbeat.
// Bounded: past `maxBytes` in all or `maxFiles` files the snapshot is skipped (the previous one
// stays valid) and the reason is reported; the file count is known from a bounded listing before
// any file is read, so a script that makes 100 000 checkpoint files costs one short listing per
// heartbeat, not 100 000 reads. `restore()` writes a manifest's files back before a
// retried run starts.
import { lstat, mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactStore } from '../../../lib/artifacts/store.js';
import { CheckpointManifest, type CheckpointEntry, type CheckpointState } from '../../../schemas/run-state.js';
import { readdirUpTo } from '../bounded-readdir.js';
import { readConfinedFile } from './confined-read.js';
import { recordCheckpointUpload } from '../../../lib/telemetry/metrics.js';

export interface CheckpointLimits {
  maxBytes: number;
  maxFiles: number;
}

const MiB = 1024 * 1024;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,127}$/;
/** Entries listed beyond `maxFiles` before a snapshot is skipped unread: room for the runtime's temporary files mid-save. */
const LISTING_SLACK = 64;

/** PHYSVEC_CHECKPOINT_MAX_MB (default 1024) and PHYSVEC_CHECKPOINT_MAX_FILES (default 64). */
export function checkpointLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): CheckpointLimits {
  const mb = Number(env.PHYSVEC_CHECKPOINT_MAX_MB);
  const files = Number(env.PHYSVEC_CHECKPOINT_MAX_FILES);
  return {
    maxBytes: (Number.isFinite(mb) && mb > 0 ? mb : 1024) * MiB,
    maxFiles: Number.isInteger(files) && files > 0 ? Math.min(files, 256) : 64,
  };
}

interface Known {
  size: number;
  mtimeMs: number;
  ref: CheckpointEntry['ref'];
}

export class CheckpointSync {
  private known = new Map<string, Known>();
  private state: CheckpointState | undefined;
  private realDir: string | null = null;

  constructor(
    private readonly store: ArtifactStore,
    private readonly dir: string,
    private readonly limits: CheckpointLimits,
    previous?: CheckpointState,
    /** A snapshot that failed (the store's disk full, say): told, so a run that then fails can be judged (runners/sandbox/host-disk.ts). */
    private readonly onWriteError?: (err: unknown) => void,
  ) {
    this.state = previous ? { ...previous, skipped: undefined } : undefined;
  }

  current(): CheckpointState | undefined {
    return this.state;
  }

  /** Create the dir and put `previous`'s files back; called by the worker before the script starts. */
  async restore(attempt: number): Promise<number> {
    await mkdir(this.dir, { recursive: true });
    this.realDir = await realpath(this.dir);
    if (!this.state) return 0;
    const manifest = CheckpointManifest.parse(await this.store.getJson(this.state.manifest));
    const stamp = Date.now();
    for (const f of manifest.files) {
      if (!NAME.test(f.name)) continue;
      const target = path.join(this.dir, f.name);
      await writeFile(target, await this.store.get(f.ref), { flag: 'wx' });
      const st = await lstat(target);
      this.known.set(f.name, { size: st.size, mtimeMs: st.mtimeMs, ref: f.ref });
    }
    this.state = { ...this.state, restoredAtAttempt: attempt, at: stamp };
    return manifest.files.length;
  }

  /** One snapshot; returns the state to heartbeat. Never throws (a failed snapshot keeps the last one). */
  async sync(): Promise<CheckpointState | undefined> {
    try {
      await this.snapshot();
    } catch (err) {
      this.onWriteError?.(err);
      if (this.state) this.state = { ...this.state, skipped: `snapshot failed: ${(err as Error).message}`.slice(0, 300) };
    }
    return this.state;
  }

  private async snapshot(): Promise<void> {
    if (this.realDir === null) return;
    let names: string[];
    try {
      const listing = await readdirUpTo(this.dir, this.limits.maxFiles + LISTING_SLACK);
      if (listing.more) return this.skip(`more than ${this.limits.maxFiles + LISTING_SLACK} entries, more than the ${this.limits.maxFiles} files allowed (PHYSVEC_CHECKPOINT_MAX_FILES)`);
      names = listing.entries.map((e) => e.name).filter((n) => NAME.test(n) && !n.endsWith('.tmp')).sort();
    } catch {
      return;
    }
    if (names.length === 0) return;
    if (names.length > this.limits.maxFiles) return this.skip(`${names.length} files, more than the ${this.limits.maxFiles} allowed`);
    const entries: CheckpointEntry[] = [];
    let total = 0;
    let uploads = 0;
    let uploadedBytes = 0;
    for (const name of names) {
      const file = path.join(this.dir, name);
      const st = await lstat(file).catch(() => null);
      if (!st || !st.isFile()) continue;
      total += st.size;
      if (total > this.limits.maxBytes) return this.skip(`over ${Math.round(this.limits.maxBytes / MiB)} MiB (PHYSVEC_CHECKPOINT_MAX_MB)`);
      const known = this.known.get(name);
      if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) {
        entries.push({ name, ref: known.ref });
        continue;
      }
      const read = await readConfinedFile(file, this.limits.maxBytes, path.join(this.realDir, name));
      if (!read.ok) continue;
      const ref = await this.store.put(read.content, { name });
      if (known?.ref.sha256 !== ref.sha256) {
        uploads += 1;
        uploadedBytes += ref.bytes;
      }
      this.known.set(name, { size: st.size, mtimeMs: st.mtimeMs, ref });
      entries.push({ name, ref });
    }
    if (entries.length === 0) return;
    if (uploads > 0) recordCheckpointUpload(uploadedBytes);
    this.skippedBeforeFirst = undefined;
    const manifest = await this.store.putJson({ files: entries } satisfies CheckpointManifest, 'checkpoint-manifest.json');
    if (manifest.sha256 === this.state?.manifest.sha256) {
      this.state = { ...this.state, skipped: undefined };
      return;
    }
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
    else this.skippedBeforeFirst = why;
  }

  /** A snapshot skipped before any was taken (no state to carry the reason yet). */
  skippedBeforeFirst: string | undefined;
}
