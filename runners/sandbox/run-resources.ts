// What a run holds between its start and its clean-up — its id, work dir, uid lease and cgroup —
// and their release, shared by a run (run.ts) and a chain started ahead of its run (prestart.ts).
import { randomUUID } from 'node:crypto';
import { removeRunCgroup, type RunCgroup } from './cgroup.js';
import type { UidLease } from './uid.js';
import { keepWorkDirs, retireWorkDir } from './workdir.js';

/** Runs of this process between creating their cgroup and removing it (the stale sweep leaves them alone). */
export const activeRuns = new Set<string>();

export function newRunId(): string {
  return `${new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}-${randomUUID().slice(0, 8)}`;
}

/** Never throws: a failure is logged and left to the stale sweeps, so the result still comes back. */
export async function releaseRun(runId: string, cgroup: RunCgroup | null, lease: UidLease | null, workDir: string, mark: (phase: string) => void = () => undefined): Promise<void> {
  if (cgroup) await removeRunCgroup(cgroup);
  activeRuns.delete(runId);
  mark('clean-up: cgroup removed');
  // Out of the run's path (removed in the background) before its uid can go to another run.
  if (!keepWorkDirs()) await retireWorkDir(workDir);
  mark('clean-up: work dir retired');
  // Only now, with the run's processes gone, may another run have its uid.
  await lease?.release();
  mark('clean-up: uid released');
}
