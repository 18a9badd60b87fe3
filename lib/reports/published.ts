// Reports beyond one host (issue 29.6). A report folder — a reproduction's evidence report
// (<state>/reports/<run>/) or a campaign's (<state>/campaigns/<campaign>/) — is written on the host
// that made it; when the artifact store is a bucket it is mirrored there under the same relative key
// (<artifact prefix>/reports/<run>/…), and a host that lacks it copies it back into its own state dir
// before showing it. The folder travels whole, so its relative links (figures, linked files, a
// campaign's links to its runs' reports) work on the reading host too.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ArtifactStore } from '../artifacts/store.js';
import { S3Backend } from '../artifacts/s3-backend.js';
import { joinKey } from '../artifacts/blob-backend.js';
import { mapLimit } from '../toolchains/map-limit.js';
import { stateDir } from '../paths.js';

const PARALLEL = 4;

/** The bucket behind `store`, or null for a store on this host's disk (its reports are already here). */
export function reportBucket(store: ArtifactStore): S3Backend | null {
  return store.backend instanceof S3Backend ? store.backend : null;
}

/** `dir`'s key in the bucket: its path under the state directory ('reports/<run>'). */
function folderKey(dir: string): string {
  const rel = path.relative(stateDir(), dir);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`report folder ${dir} is not under the state directory ${stateDir()}`);
  return joinKey(...rel.split(path.sep));
}

/** Where the folder `dir` is mirrored in the bucket, for messages. */
export function folderUrl(bucket: S3Backend, dir: string): string {
  return bucket.describe(folderKey(dir));
}

async function filesUnder(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, r)));
    else if (e.isFile() && !e.name.endsWith('.tmp')) out.push(r);
  }
  return out;
}

/** Mirrors the folder `dir` into the bucket (over an older copy, whose files not in `dir` are removed); the URL of `file` in it. */
export async function publishFolder(bucket: S3Backend, dir: string, file = 'report.html'): Promise<string> {
  const key = folderKey(dir);
  const files = await filesUnder(dir);
  const before = await bucket.list(key);
  await mapLimit(files, PARALLEL, async (f) => bucket.upload(`${key}/${f}`, path.join(dir, f), (await fs.stat(path.join(dir, f))).size));
  const now = new Set(files.map((f) => `${key}/${f}`));
  await mapLimit(before.filter((o) => !now.has(o.key)), PARALLEL, (o) => bucket.remove(o.key));
  return bucket.describe(`${key}/${file}`);
}

/** Copies the folder `dir`'s mirror from the bucket into `dir`; false when the bucket has none. */
export async function fetchFolder(bucket: S3Backend, dir: string): Promise<boolean> {
  const key = folderKey(dir);
  const objects = await bucket.list(key);
  if (objects.length === 0) return false;
  await mapLimit(objects, PARALLEL, async (o) => {
    const target = path.join(dir, ...o.key.slice(key.length + 1).split('/'));
    if (path.relative(dir, target).startsWith('..')) return; // a key with '..' never leaves the folder
    await fs.mkdir(path.dirname(target), { recursive: true });
    await bucket.download(o.key, target, true);
  });
  return true;
}
