// Content-addressed artifact store: blobs named by their sha256 (key <2 hex>/<rest>) in a backend —
// a directory of this host (the default) or an S3-compatible bucket (blob-backend.ts). Writes are
// write-once and idempotent, so a retried activity that stores the same script twice produces the
// same reference and no duplicate. Large content (a run's checkpoint files) is streamed in and out:
// hashed on its way into a spool file on this host, then stored under its sha (renamed, or uploaded
// in parts), so the worker never holds a whole file in memory.
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs, createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { artifactsDir } from '../paths.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import { ArtifactMissingError, joinKey, type BlobBackend } from './blob-backend.js';
import { LocalBackend } from './local-backend.js';
import { configuredBackend } from './store-config.js';

type Meta = { name?: string; mediaType?: string };

const contentKey = (sha256: string) => `${sha256.slice(0, 2)}/${sha256.slice(2)}`;

export class ArtifactStore {
  readonly backend: BlobBackend;

  /** A directory (the local backend) or a backend; default: the configured store (store-config.ts). */
  constructor(where: string | BlobBackend = artifactsDir()) {
    this.backend = typeof where === 'string' ? new LocalBackend(where) : where;
  }

  /** The directory on this host the store writes to (its files, or its upload spool for a bucket). */
  get root(): string {
    return this.backend.localDir;
  }

  /** Where the store is, for messages: a directory or s3://bucket/prefix. */
  get location(): string {
    return this.backend.location;
  }

  /** Where `sha256`'s content is, for a user: a path or an s3:// URL. */
  describe(sha256: string): string {
    return this.backend.describe(contentKey(sha256));
  }

  /** The store under `sub/` of this one (a run's checkpoints: run-state/checkpoint-store.ts). */
  child(sub: string): ArtifactStore {
    return new ArtifactStore(this.backend.child(joinKey(sub)));
  }

  async put(content: string | Uint8Array, meta: Meta = {}): Promise<ArtifactRef> {
    const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const sha256 = createHash('sha256').update(buf).digest('hex');
    await this.backend.storeBytes(contentKey(sha256), buf);
    return { sha256, bytes: buf.length, ...meta };
  }

  async putFile(file: string, meta: Meta = {}): Promise<ArtifactRef> {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    const sha256 = hash.digest('hex');
    const { size } = await fs.stat(file);
    await this.backend.storeFile(contentKey(sha256), file, size, false);
    return { sha256, bytes: size, name: meta.name ?? path.basename(file), ...(meta.mediaType ? { mediaType: meta.mediaType } : {}) };
  }

  /**
   * Store what `source` yields, never more than `maxBytes` (past it: StreamTooLargeError, nothing
   * stored). `created` says the content was not in the store before (this call wrote it).
   */
  async putStream(source: Readable, meta: Meta = {}, maxBytes = Number.POSITIVE_INFINITY): Promise<ArtifactRef & { created: boolean }> {
    const incoming = path.join(this.root, '.incoming');
    await fs.mkdir(incoming, { recursive: true });
    const tmp = path.join(incoming, `${randomUUID()}.tmp`);
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      await pipeline(
        source,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            bytes += chunk.length;
            if (bytes > maxBytes) throw new StreamTooLargeError(maxBytes);
            hash.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(tmp, { flags: 'wx', mode: 0o644 }),
      );
      const sha256 = hash.digest('hex');
      const created = await this.backend.storeFile(contentKey(sha256), tmp, bytes, true);
      return { sha256, bytes, ...meta, created };
    } finally {
      // A write cut short (ENOSPC, too large) must not leave its half file to keep the disk full.
      await fs.rm(tmp, { force: true }).catch(() => undefined);
    }
  }

  /**
   * Write `ref`'s content to the local file `target`, streamed: a new file (never over an existing
   * one) unless `overwrite`. How a sandbox work dir or a report folder gets an artifact from any backend.
   */
  async copyOut(ref: ArtifactRef | string, target: string, opts: { overwrite?: boolean } = {}): Promise<void> {
    const sha = typeof ref === 'string' ? ref : ref.sha256;
    await this.missingNamed(sha, () => this.backend.download(contentKey(sha), target, opts.overwrite ?? false));
  }

  /** Remove `sha`'s content (a caller that knows nothing else refers to it: checkpoint-sync.ts). */
  async remove(sha256: string): Promise<void> {
    await this.backend.remove(contentKey(sha256));
  }

  async get(ref: ArtifactRef | string): Promise<Buffer> {
    const sha = typeof ref === 'string' ? ref : ref.sha256;
    return this.missingNamed(sha, () => this.backend.read(contentKey(sha)));
  }

  async getText(ref: ArtifactRef | string): Promise<string> {
    return (await this.get(ref)).toString('utf8');
  }

  async putJson(value: unknown, name?: string): Promise<ArtifactRef> {
    return this.put(JSON.stringify(value, null, 2), { name, mediaType: 'application/json' });
  }

  async getJson<T = unknown>(ref: ArtifactRef | string): Promise<T> {
    return JSON.parse(await this.getText(ref)) as T;
  }

  private async missingNamed<T>(sha: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof ArtifactMissingError)) throw err;
      throw new ArtifactMissingError(`artifact ${sha} is not in the store at ${this.location} (was PHYSVEC_STATE_DIR or the bucket changed?): ${err.message}`, { cause: err });
    }
  }
}

export class StreamTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

let shared: ArtifactStore | undefined;
/** The process-wide store: the configured backend (store-config.ts), read once. */
export function artifactStore(): ArtifactStore {
  shared ??= new ArtifactStore(configuredBackend());
  return shared;
}
