// Who made a run cgroup: a marker file per cgroup name, `<stateDir>/cgroup-owners/<name>`, holding
// the boot id, pid and start time of the worker process that created it. cgroup v1 allows no files
// of our own in a cgroup directory, hence a marker beside the state. With it the stale sweep knows
// a run is over as soon as its worker is gone (another boot, no such pid, or the pid reused by a
// process started at another time), instead of waiting an hour in case another live worker sharing
// the cgroup parent is still setting the group up. A cgroup without a marker (made by an older
// worker, or by one with another state dir) keeps the age rule.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stateDir } from '../../lib/paths.js';
import { bootId, startTicks } from '../../lib/process-identity.js';

export type CgroupOwner = 'this-process' | 'alive' | 'gone' | 'unknown';

export function ownerMarkerDir(): string {
  return path.join(stateDir(), 'cgroup-owners');
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

let selfMark: string | null = null;

/** This worker process, as its markers record it: `<boot id> <pid> <start ticks>`. */
export function selfOwnerMark(): string {
  selfMark ??= `${bootId()} ${process.pid} ${startTicks('self') ?? '?'}`;
  return selfMark;
}

/** Before the cgroup is made: a marker naming this process (best effort: without one the age rule applies). */
export function recordCgroupOwner(name: string): void {
  try {
    mkdirSync(ownerMarkerDir(), { recursive: true });
    writeFileSync(path.join(ownerMarkerDir(), name), selfOwnerMark());
  } catch {
    // The sweep falls back to the age rule for this cgroup.
  }
}

export function forgetCgroupOwner(name: string): void {
  rmSync(path.join(ownerMarkerDir(), name), { force: true });
}

/** Whether the worker that made cgroup `name` still runs. */
export function cgroupOwner(name: string): CgroupOwner {
  const mark = readOrNull(path.join(ownerMarkerDir(), name))?.trim();
  if (!mark) return 'unknown';
  if (mark === selfOwnerMark()) return 'this-process';
  const [boot, pid, ticks] = mark.split(' ');
  if (!boot || !/^\d+$/.test(pid ?? '') || !ticks) return 'unknown';
  if (boot !== bootId()) return 'gone';
  const now = startTicks(Number(pid));
  return now !== null && now === ticks ? 'alive' : 'gone';
}

/** Names of all markers (the sweep drops those whose cgroup is gone and whose worker is too). */
export function markedCgroups(): string[] {
  try {
    return readdirSync(ownerMarkerDir());
  } catch {
    return [];
  }
}
