// The artifact store in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, moto in the tests), so
// workers on hosts that share no disk share their artifacts and checkpoints. Content is spooled to a
// local file by the store before it gets here (its key is its hash), then uploaded in parts by
// lib-storage's Upload — at most partSize × queueSize bytes in memory — and downloaded as a stream.
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
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

  child(sub: string): BlobBackend {
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
    if (move) await fs.rm(file, { force: true });
    return true;
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
    try {
      await this.place.client.send(new PutObjectCommand({ Bucket: this.place.bucket, Key: this.key(key), Body: body, IfNoneMatch: '*' }));
      return true;
    } catch (err) {
      // 412: another writer's object is there (conditional writes: S3, MinIO, moto).
      if (s3StatusOf(err) === 412) return false;
      throw this.fault(err, key, 'write');
    }
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
