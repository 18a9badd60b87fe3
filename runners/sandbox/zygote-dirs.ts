// The warm python's scratch dirs in the host's /tmp: its HOME (matplotlib's config and font cache,
// seeded from the worker's) and the root-only dir of its request payloads, one pair per worker
// process (named by its pid). They go when the worker exits; a worker that was killed cannot
// remove them, so the next worker on the host removes those of pids no longer alive.
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const NAME = /^physvec-zygote-(?:home-)?(\d+)$/;

export function zygoteHomeDir(pid = process.pid, tmp = tmpdir()): string {
  return path.join(tmp, `physvec-zygote-home-${pid}`);
}

export function zygotePayloadDir(pid = process.pid, tmp = tmpdir()): string {
  return path.join(tmp, `physvec-zygote-${pid}`);
}

let registered = false;

/** Once per process: remove this worker's dirs when it exits (however the event loop ends: 'exit' runs synchronously). */
export function removeZygoteDirsOnExit(): void {
  if (registered) return;
  registered = true;
  process.once('exit', () => {
    for (const dir of [zygoteHomeDir(), zygotePayloadDir()]) rmSync(dir, { recursive: true, force: true, maxRetries: 0 });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the dirs of workers whose pid is gone; returns them. */
export function sweepStaleZygoteDirs(tmp = tmpdir()): string[] {
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(NAME.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    try {
      rmSync(path.join(tmp, name), { recursive: true, force: true });
      removed.push(path.join(tmp, name));
    } catch {
      // Someone else's (another user's /tmp entry we may not remove): left alone.
    }
  }
  return removed;
}
