// The evidence report's folder: the files its page links, copied out of the content-addressed store
// under readable names beside report.html, so every link is relative and the folder can be archived
// or mailed as a whole (the store's names are hashes, and it may live on another machine).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import { ArtifactMissingError } from '../../lib/artifacts/blob-backend.js';
import type { ArtifactRef } from '../../schemas/artifact.js';

export interface LinkedFile {
  /** Path relative to the report's folder (what the page links). */
  href: string;
  /** What the file is, for the page's list of files. */
  what: string;
  bytes: number;
  sha256: string;
}

/** A run-output path as a safe relative path inside the folder (no `..`, no absolute path). */
export function safeRelative(p: string): string {
  const parts = p.split(/[\\/]+/).filter((s) => s && s !== '.' && s !== '..');
  return parts.map((s) => s.replace(/[^A-Za-z0-9._-]/g, '_')).join('/') || 'unnamed';
}

export class ReportFolder {
  readonly files: LinkedFile[] = [];
  /** Files the page would link but the store does not hold (a report is still written without them). */
  readonly missing: string[] = [];
  constructor(readonly dir: string, private readonly store: ArtifactStore) {}

  /** Empties the folder's `artifacts/`: a report rewritten for the same workflow id links no stale file. */
  async reset(): Promise<void> {
    await fs.rm(path.join(this.dir, 'artifacts'), { recursive: true, force: true });
    await fs.mkdir(this.dir, { recursive: true });
  }

  /** Copies an artifact to `href` (relative to the folder) and lists it; undefined when the store lacks it. */
  async copy(ref: ArtifactRef, href: string, what: string): Promise<LinkedFile | undefined> {
    const target = path.join(this.dir, href);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await this.store.copyOut(ref, target, { overwrite: true });
    } catch (err) {
      if (!(err instanceof ArtifactMissingError)) throw err;
      this.missing.push(`${what} (${ref.sha256.slice(0, 12)}…): not in the artifact store at ${this.store.location}`);
      return undefined;
    }
    const f = { href, what, bytes: ref.bytes, sha256: ref.sha256 };
    this.files.push(f);
    return f;
  }

  /** As `copy`, but content already copied (same sha256) is linked where it is, not copied again. */
  async copyOnce(ref: ArtifactRef, href: string, what: string): Promise<LinkedFile | undefined> {
    return this.files.find((f) => f.sha256 === ref.sha256) ?? this.copy(ref, href, what);
  }

  /** Writes text the report made itself (the whole of a text the page shows cut) to `href` and lists it. */
  async write(href: string, content: string, what: string): Promise<LinkedFile> {
    const target = path.join(this.dir, href);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
    const buf = Buffer.from(content, 'utf8');
    const f = { href, what, bytes: buf.length, sha256: createHash('sha256').update(buf).digest('hex') };
    this.files.push(f);
    return f;
  }
}
