// Where the artifact store keeps its bytes: a directory on this host (local-backend.ts, the default)
// or an S3-compatible bucket (s3-backend.ts). The store (store.ts) does the content addressing —
// hashing, naming by sha256 — and asks its backend only for keyed, write-once blobs, so the two
// backends cannot disagree on what a reference means. Keys are relative, '/'-separated.
export interface BlobBackend {
  /** Where the blobs are, for messages: a directory or s3://bucket/prefix. */
  readonly location: string;
  /**
   * A directory on this host the store writes to: its files (local) or the spool where content is
   * hashed before it is uploaded (bucket). The host-disk check watches it.
   */
  readonly localDir: string;
  has(key: string): Promise<boolean>;
  /**
   * Stores the finished file `file` (`bytes` long) at `key` unless `key` is there already (same
   * key = same content). `move`: the file is the store's own temp file and may be taken. True = written now.
   */
  storeFile(key: string, file: string, bytes: number, move: boolean): Promise<boolean>;
  /** Stores a small `body` at `key` unless `key` is there already (same key = same content). True = written now. */
  storeBytes(key: string, body: Buffer): Promise<boolean>;
  /** Writes a small `body` at `key` only when nothing is there (never over another writer's). True = written now. */
  createOnce(key: string, body: Buffer): Promise<boolean>;
  /** The whole content (small objects); ArtifactMissingError when absent. */
  read(key: string): Promise<Buffer>;
  /** Streams `key` to a new local file `target` (over an existing one only with `overwrite`); ArtifactMissingError when absent. */
  download(key: string, target: string, overwrite: boolean): Promise<void>;
  remove(key: string): Promise<void>;
  /** The same backend under `sub/` (a run's checkpoints). */
  child(sub: string): BlobBackend;
  /** Where `key` is, for a user: a path or an s3:// URL. */
  describe(key: string): string;
}

/** The store does not hold a blob: a reference from another store, or a state dir that moved. */
export class ArtifactMissingError extends Error {
  override name = 'ArtifactMissingError';
}

/**
 * The store cannot be reached or refuses this worker (credentials, endpoint down, no bucket): an
 * infrastructure fault, retried, never the script's. The message names the bucket/key and the fix.
 */
export class ArtifactStoreUnavailableError extends Error {
  override name = 'ArtifactStoreUnavailableError';
}

/** True when `err` (or an error it wraps) is the store being unreachable. */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof ArtifactStoreUnavailableError) return true;
  }
  return false;
}

/** A key's parts joined with '/', with no empty, '.' or '..' part (a key never leaves its prefix). */
export function joinKey(...parts: string[]): string {
  const segs = parts.flatMap((p) => p.split('/')).filter((s) => s && s !== '.');
  if (segs.includes('..')) throw new Error(`artifact key ${parts.join('/')} has a '..' part`);
  return segs.join('/');
}
