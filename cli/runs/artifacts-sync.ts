// `physvec artifacts sync`: every file of a local store copied to the same key in a bucket, a few at
// a time, each streamed (multipart for a large checkpoint). A key already in the bucket is skipped:
// content-addressed keys hold the same bytes wherever they are, and run pins are write-once.
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { BadInputError } from '../../lib/errors.js';
import { artifactsDir } from '../../lib/paths.js';
import { bucketAt, s3Backend } from '../../lib/artifacts/store-config.js';
import { line, printJson } from '../output.js';

const PARALLEL = 4;

/** Every stored file under `dir` as [key, path]; the spool and temp files of writes in flight are not artifacts. */
async function* storedFiles(dir: string, rel = ''): AsyncGenerator<[string, string]> {
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    if (e.name === '.incoming' || e.name.endsWith('.tmp')) continue;
    const file = path.join(dir, e.name);
    if (e.isDirectory()) yield* storedFiles(file, `${rel}${e.name}/`);
    else if (e.isFile()) yield [`${rel}${e.name}`, file];
  }
}

export async function syncArtifacts(opts: { to: string; from?: string; json?: boolean }): Promise<void> {
  const from = path.resolve(opts.from ?? artifactsDir());
  if (!existsSync(from)) throw new BadInputError(`--from ${from}: no such directory; give the artifact store of a state dir (<state dir>/artifacts)`, from, '--from');
  const bucket = s3Backend(bucketAt(opts.to, '--to'), from);
  const counts = { objects: 0, copied: 0, skipped: 0, copiedBytes: 0, totalBytes: 0 };
  const inFlight = new Set<Promise<void>>();
  for await (const [key, file] of storedFiles(from)) {
    const job = (async () => {
      const { size } = await fs.stat(file);
      const copied = await bucket.storeFile(key, file, size, false);
      counts.objects++;
      counts.totalBytes += size;
      if (copied) {
        counts.copied++;
        counts.copiedBytes += size;
      } else counts.skipped++;
    })();
    inFlight.add(job);
    void job.finally(() => inFlight.delete(job)).catch(() => undefined);
    if (inFlight.size >= PARALLEL) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (opts.json) return printJson({ from, to: bucket.location, ...counts });
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
  line(`synced ${from} to ${bucket.location}: ${counts.objects} objects (${mib(counts.totalBytes)}); ${counts.copied} copied (${mib(counts.copiedBytes)}), ${counts.skipped} already there`);
}
