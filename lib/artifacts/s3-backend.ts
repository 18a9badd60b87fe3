// The artifact store in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, moto in the tests), so
// workers on hosts that share no disk share their artifacts and checkpoints. Content is spooled to a
// local file by the store before it gets here (its key is its hash), then uploaded in parts by
// lib-storage's Upload — at most partSize × queueSize bytes in memory — and downloaded as a stream.
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ArtifactMissingError, joinKey, type BlobBackend } from './blob-backend.js';
import { s3Fault, s3StatusOf } from './s3-errors.js';

export interface S3Place {
  client: S3Client;
  bucket: string;
  /** Key prefix inside the bucket, '' for its root. */
  prefix: string;
  /** The endpoint, for messages ('AWS S3' when the SDK's own). */
  endpoint: string;
  /** The spool directory on this host (the store hashes content there before uploading it). */
  localDir: string;
}

/** Parts of 8 MiB, two in flight: an upload holds at most 16 MiB of a checkpoint in memory. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

export class S3Backend implements BlobBackend {
  constructor(private readonly place: S3Place) {}

  get localDir(): string {
    return this.place.localDir;
  }

  get location(): string {
    return `s3://${this.place.bucket}/${this.place.prefix}`;
  }

  private key(key: string): string {
    return joinKey(this.place.prefix, key);
  }

  describe(key: string): string {
    return `s3://${this.place.bucket}/${this.key(key)}`;
  }

  child(sub: string): S3Backend {
    return new S3Backend({ ...this.place, prefix: this.key(sub) });
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.place.client.send(new HeadObjectCommand({ Bucket: this.place.bucket, Key: this.key(key) }));
      return true;
    } catch (err) {
      if (s3StatusOf(err) === 404 && !isNoSuchBucket(err)) return false;
      throw this.fault(err, key, 'look up');
    }
  }

  async storeFile(key: string, file: string, bytes: number, move: boolean): Promise<boolean> {
    // Same key, same content: a racing writer's copy is as good as ours, so HEAD before PUT suffices.
    if (await this.has(key)) return false;
    await this.upload(key, file, bytes);
    if (move) await fs.rm(file, { force: true });
    return true;
  }

  /** Uploads `file` to `key`, over what is there (a report folder rewritten). */
  async upload(key: string, file: string, bytes: number): Promise<void> {
    const params = { Bucket: this.place.bucket, Key: this.key(key), ContentLength: bytes };
    try {
      if (bytes <= PART_SIZE) {
        await this.place.client.send(new PutObjectCommand({ ...params, Body: await fs.readFile(file) }));
      } else {
        await new Upload({ client: this.place.client, params: { ...params, Body: createReadStream(file) }, partSize: PART_SIZE, queueSize: QUEUE_SIZE, leavePartsOnError: false }).done();
      }
    } catch (err) {
      throw this.fault(err, key, 'upload');
    }
  }

  /** Every object under `sub/` (all pages), keys relative to this backend's prefix, in key order. */
  async list(sub: string): Promise<{ key: string; bytes: number }[]> {
    const base = this.key('');
    const Prefix = `${this.key(sub)}/`;
    const out: { key: string; bytes: number }[] = [];
    let ContinuationToken: string | undefined;
    do {
      let page;
      try {
        page = await this.place.client.send(new ListObjectsV2Command({ Bucket: this.place.bucket, Prefix, ContinuationToken }));
      } catch (err) {
        throw this.fault(err, sub, 'list');
      }
      for (const o of page.Contents ?? []) out.push({ key: base ? o.Key!.slice(base.length + 1) : o.Key!, bytes: o.Size ?? 0 });
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return out;
  }

  /** A small object and its ETag (what a conditional write names), or null when absent. */
  async readVersioned(key: string): Promise<{ body: Buffer; etag: string } | null> {
    try {
      const out = await this.place.client.send(new GetObjectCommand({ Bucket: this.place.bucket, Key: this.key(key) }));
      return { body: Buffer.from(await out.Body!.transformToByteArray()), etag: out.ETag! };
    } catch (err) {
      if (s3StatusOf(err) === 404 && !isNoSuchBucket(err)) return null;
      throw this.fault(err, key, 'download');
    }
  }

  /**
   * Writes `body` at `key` only if the object is still the one read: `etag` null = only if absent
   * (If-None-Match), else only if its ETag is `etag` (If-Match). False when another writer came first.
   */
  async writeIf(key: string, body: Buffer, etag: string | null): Promise<boolean> {
    const cond = etag === null ? { IfNoneMatch: '*' } : { IfMatch: etag };
    try {
      await this.place.client.send(new PutObjectCommand({ Bucket: this.place.bucket, Key: this.key(key), Body: body, ...cond }));
      return true;
    } catch (err) {
      // 412: the precondition failed; 409: S3's answer to two conditional writes of one key at once;
      // 404: an If-Match on an object deleted meanwhile.
      const status = s3StatusOf(err);
      if (status === 412 || status === 409 || (status === 404 && etag !== null && !isNoSuchBucket(err))) return false;
      throw this.fault(err, key, 'write');
    }
  }

  /** Writes `body` at `key`, over what is there. */
  async overwrite(key: string, body: Buffer): Promise<void> {
    try {
      await this.place.client.send(new PutObjectCommand({ Bucket: this.place.bucket, Key: this.key(key), Body: body }));
    } catch (err) {
      throw this.fault(err, key, 'upload');
    }
  }

  async storeBytes(key: string, body: Buffer): Promise<boolean> {
    if (await this.has(key)) return false;
    try {
      await this.place.client.send(new PutObjectCommand({ Bucket: this.place.bucket, Key: this.key(key), Body: body }));
      return true;
    } catch (err) {
      throw this.fault(err, key, 'upload');
    }
  }

  async createOnce(key: string, body: Buffer): Promise<boolean> {
    return this.writeIf(key, body, null);
  }

  async read(key: string): Promise<Buffer> {
    const body = await this.open(key);
    return Buffer.from(await body.transformToByteArray());
  }

  async download(key: string, target: string, overwrite: boolean): Promise<void> {
    const body = await this.open(key);
    try {
      await pipeline(body as Readable, createWriteStream(target, { flags: overwrite ? 'w' : 'wx' }));
    } catch (err) {
      // Half a file in a sandbox work dir would be read as the whole checkpoint.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') await fs.rm(target, { force: true }).catch(() => undefined);
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' || (err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
      throw this.fault(err, key, 'download');
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await this.place.client.send(new DeleteObjectCommand({ Bucket: this.place.bucket, Key: this.key(key) }));
    } catch (err) {
      throw this.fault(err, key, 'remove');
    }
  }

  private async open(key: string): Promise<Readable & { transformToByteArray(): Promise<Uint8Array> }> {
    try {
      const out = await this.place.client.send(new GetObjectCommand({ Bucket: this.place.bucket, Key: this.key(key) }));
      return out.Body as Readable & { transformToByteArray(): Promise<Uint8Array> };
    } catch (err) {
      if (s3StatusOf(err) === 404 && !isNoSuchBucket(err)) throw new ArtifactMissingError(`${this.describe(key)} does not exist`, { cause: err });
      throw this.fault(err, key, 'download');
    }
  }

  private fault(err: unknown, key: string, what: string): Error {
    return s3Fault(err, { bucket: this.place.bucket, key: this.key(key), endpoint: this.place.endpoint, what });
  }
}

const isNoSuchBucket = (err: unknown) => (err as { name?: string }).name === 'NoSuchBucket';
