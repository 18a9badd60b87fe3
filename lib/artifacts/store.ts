// Content-addressed artifact store: files named by their sha256 under <root>/<2 hex>/<rest>.
// Writes are atomic (temp file + rename) and idempotent, so a retried activity that stores the
// same script twice produces the same reference and no duplicate.
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs, createReadStream } from 'node:fs';
import path from 'node:path';
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

let shared: ArtifactStore | undefined;
/** The process-wide store (root read from the environment once). */
export function artifactStore(): ArtifactStore {
  shared ??= new ArtifactStore();
  return shared;
}
