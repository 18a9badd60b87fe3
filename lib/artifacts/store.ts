// Content-addressed artifact store: files named by their sha256 under <root>/<2 hex>/<rest>.
// Writes are atomic (temp file + rename) and idempotent, so a retried activity that stores the
// same script twice produces the same reference and no duplicate. Large content (a run's
// checkpoint files) is streamed in and out: hashed on its way into a temp file in the store,
// then renamed to its sha, so the worker never holds a whole file in memory.
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs, constants, createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { artifactsDir } from '../paths.js';
import type { ArtifactRef } from '../../schemas/artifact.js';

export class ArtifactStore {
  constructor(readonly root: string = artifactsDir()) {}

  pathOf(sha256: string): string {
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2));
  }

  async put(content: string | Uint8Array, meta: { name?: string; mediaType?: string } = {}): Promise<ArtifactRef> {
    const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const sha256 = createHash('sha256').update(buf).digest('hex');
    await this.storeOnce(this.pathOf(sha256), (tmp) => fs.writeFile(tmp, buf));
    return { sha256, bytes: buf.length, ...meta };
  }

  async putFile(file: string, meta: { name?: string; mediaType?: string } = {}): Promise<ArtifactRef> {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    const sha256 = hash.digest('hex');
    const { size } = await fs.stat(file);
    await this.storeOnce(this.pathOf(sha256), (tmp) => fs.copyFile(file, tmp));
    return { sha256, bytes: size, name: meta.name ?? path.basename(file), ...(meta.mediaType ? { mediaType: meta.mediaType } : {}) };
  }

  /**
   * Store what `source` yields, never more than `maxBytes` (past it: StreamTooLargeError, nothing
   * stored). `created` says the content was not in the store before (this call wrote it).
   */
  async putStream(source: Readable, meta: { name?: string; mediaType?: string } = {}, maxBytes = Number.POSITIVE_INFINITY): Promise<ArtifactRef & { created: boolean }> {
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
      const target = this.pathOf(sha256);
      const created = !(await exists(target));
      if (created) {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.rename(tmp, target);
      }
      return { sha256, bytes, ...meta, created };
    } finally {
      // A write cut short (ENOSPC, too large) must not leave its half file to keep the disk full.
      await fs.rm(tmp, { force: true }).catch(() => undefined);
    }
  }

  /** Write `ref`'s content to a new file `target` (never over an existing one), by the kernel's copy. */
  async copyOut(ref: ArtifactRef | string, target: string): Promise<void> {
    const sha = typeof ref === 'string' ? ref : ref.sha256;
    try {
      await fs.copyFile(this.pathOf(sha), target, constants.COPYFILE_EXCL);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !(await exists(path.dirname(target)))) throw err;
      throw new Error(`artifact ${sha} is not in the store at ${this.root}: ${(err as Error).message}`);
    }
  }

  /** Remove `sha`'s content (a caller that knows nothing else refers to it: checkpoint-sync.ts). */
  async remove(sha256: string): Promise<void> {
    await fs.rm(this.pathOf(sha256), { force: true });
  }

  /** Writes `target` if it is not there yet, through a temp file renamed into place (never half a file). */
  private async storeOnce(target: string, write: (tmp: string) => Promise<void>): Promise<void> {
    try {
      await fs.access(target);
    } catch {
      await fs.mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${randomUUID()}.tmp`;
      try {
        await write(tmp);
        await fs.rename(tmp, target);
      } catch (err) {
        // A write cut short (ENOSPC on a full disk) must not leave its half file to keep the disk full.
        await fs.rm(tmp, { force: true }).catch(() => undefined);
        throw err;
      }
    }
  }

  async get(ref: ArtifactRef | string): Promise<Buffer> {
    const sha = typeof ref === 'string' ? ref : ref.sha256;
    try {
      return await fs.readFile(this.pathOf(sha));
    } catch (err) {
      throw new Error(`artifact ${sha} is not in the store at ${this.root} (was PHYSVEC_STATE_DIR changed?): ${(err as Error).message}`);
    }
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
}

export class StreamTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

let shared: ArtifactStore | undefined;
/** The process-wide store (root read from the environment once). */
export function artifactStore(): ArtifactStore {
  shared ??= new ArtifactStore();
  return shared;
}
