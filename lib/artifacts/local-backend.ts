// The artifact store's default backend: files under a directory of this host (<state>/artifacts).
// Every write goes through a temp file renamed (or hard-linked, for write-once keys) into place, so
// a reader never sees half a file and a write cut short (ENOSPC) leaves nothing behind.
import { randomUUID } from 'node:crypto';
import { promises as fs, constants } from 'node:fs';
import path from 'node:path';
import { ArtifactMissingError, joinKey, type BlobBackend } from './blob-backend.js';

export class LocalBackend implements BlobBackend {
  constructor(readonly localDir: string) {}

  get location(): string {
    return this.localDir;
  }

  private file(key: string): string {
    return path.join(this.localDir, ...joinKey(key).split('/'));
  }

  describe(key: string): string {
    return this.file(key);
  }

  child(sub: string): BlobBackend {
    return new LocalBackend(this.file(sub));
  }

  async has(key: string): Promise<boolean> {
    return fs.access(this.file(key)).then(() => true, () => false);
  }

  async storeFile(key: string, file: string, _bytes: number, move: boolean): Promise<boolean> {
    const target = this.file(key);
    if (await this.has(key)) return false;
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (move) {
      await fs.rename(file, target);
      return true;
    }
    await this.viaTemp(target, (tmp) => fs.copyFile(file, tmp), (tmp) => fs.rename(tmp, target));
    return true;
  }

  async storeBytes(key: string, body: Buffer): Promise<boolean> {
    const target = this.file(key);
    if (await this.has(key)) return false;
    await fs.mkdir(path.dirname(target), { recursive: true });
    await this.viaTemp(target, (tmp) => fs.writeFile(tmp, body), (tmp) => fs.rename(tmp, target));
    return true;
  }

  async createOnce(key: string, body: Buffer): Promise<boolean> {
    const target = this.file(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      // link() fails with EEXIST when another writer was first: that write stays.
      await this.viaTemp(target, (tmp) => fs.writeFile(tmp, body), (tmp) => fs.link(tmp, target));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await fs.readFile(this.file(key));
    } catch (err) {
      throw this.missingOr(err, key);
    }
  }

  async download(key: string, target: string, overwrite: boolean): Promise<void> {
    try {
      await fs.copyFile(this.file(key), target, overwrite ? 0 : constants.COPYFILE_EXCL);
    } catch (err) {
      // ENOENT for a missing target directory is the caller's, not a missing artifact.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !(await fs.access(path.dirname(target)).then(() => true, () => false))) throw err;
      throw this.missingOr(err, key);
    }
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  private missingOr(err: unknown, key: string): Error {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return err as Error;
    return new ArtifactMissingError(`${this.file(key)} does not exist`, { cause: err });
  }

  /** `write` a temp file beside `target`, then `commit` it; the temp file never outlives the call. */
  private async viaTemp(target: string, write: (tmp: string) => Promise<void>, commit: (tmp: string) => Promise<void>): Promise<void> {
    const tmp = `${target}.${randomUUID()}.tmp`;
    try {
      await write(tmp);
      await commit(tmp);
    } finally {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
    }
  }
}
