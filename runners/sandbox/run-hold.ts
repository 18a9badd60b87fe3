// What a run holds from its start to its clean-up — work dir, uid lease, run cgroup — either taken
// over with a chain started ahead of it (prestart.ts) or made for it here, step by step, in the
// order a run needs them. What the host cannot give this run is dropped from its isolation plan
// (`hold.plan`), with the reason.
import { execFile } from 'node:child_process';
import type { SandboxRequest } from '../../schemas/sandbox.js';
import type { ResolvedRunner } from '../languages/profile.js';
import { RunCgroup } from './cgroup.js';
import { seedMatplotlibCache } from './font-cache.js';
import { withoutPrivilegeDrop, withoutRunCgroup, type IsolationPlan } from './plan.js';
import type { Prestarted } from './prestart.js';
import { activeRuns, newRunId, releaseRun } from './run-resources.js';
import { allocateSandboxUid, type UidLease } from './uid.js';
import { chownTree, createWorkDir } from './workdir.js';

const MiB = 1024 * 1024;

export interface RunHold {
  runId: string;
  workDir: string;
  privateDir: string;
  lease: UidLease | null;
  cgroup: RunCgroup | null;
  /** The isolation this run gets: the planned one less what could not be set up for it. */
  plan: IsolationPlan;
  /** The chain started ahead of this run that it took over (with its work dir, uid and cgroup), or null. */
  taken: Prestarted | null;
}

/** The run's id and work dir: the taken chain's, or new ones (with the font list seeded). */
export async function holdRun(taken: Prestarted | null, runner: ResolvedRunner, plan: IsolationPlan): Promise<RunHold> {
  if (taken) {
    activeRuns.add(taken.runId);
    return { runId: taken.runId, workDir: taken.workDir, privateDir: taken.privateDir, lease: taken.lease, cgroup: taken.cgroup, plan, taken };
  }
  const runId = newRunId();
  const { dir: workDir, privateDir } = await createWorkDir(runId);
  activeRuns.add(runId);
  const mplConfigDir = runner.env({ workDir, privateDir }).MPLCONFIGDIR;
  if (mplConfigDir) seedMatplotlibCache(mplConfigDir);
  return { runId, workDir, privateDir, lease: null, cgroup: null, plan, taken: null };
}

/** Once the inputs are written: the work dir goes to the run's uid (leased now unless the hold has one). */
export async function giveToRunUid(hold: RunHold, runner: ResolvedRunner): Promise<void> {
  if (!hold.lease && hold.plan.dropPrivileges) hold.lease = await allocateSandboxUid();
  if (!hold.lease) return;
  chownTree(hold.workDir, hold.lease.uid);
  // Without bwrap to re-expose them, the interpreter and work dir must be reachable as they are.
  if (hold.plan.bwrap || (await canRunAs(hold.plan.setpriv!, hold.lease.uid, runner.executable, hold.workDir))) return;
  await hold.lease.release();
  hold.lease = null;
  hold.plan = withoutPrivilegeDrop(hold.plan, `the run's uid could not reach ${runner.executable} or the work dir without bwrap to re-expose them`);
}

/** The cgroup capping the whole run's memory and processes (made now unless the hold has one). */
export function capInRunCgroup(hold: RunHold, req: SandboxRequest): void {
  if (hold.cgroup || !hold.plan.cgroup) return;
  try {
    hold.cgroup = RunCgroup.create(hold.plan.cgroup, hold.runId, { memoryBytes: req.memoryMb * MiB, maxProcesses: req.maxProcesses });
  } catch (err) {
    hold.plan = withoutRunCgroup(hold.plan, (err as Error).message);
  }
}

/** Never throws (releaseRun). */
export function releaseHold(hold: RunHold, mark?: (phase: string) => void): Promise<void> {
  return releaseRun(hold.runId, hold.cgroup, hold.lease, hold.workDir, mark);
}

function canRunAs(setpriv: string, uid: number, executable: string, workDir: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      setpriv,
      [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', '/usr/bin/test', '-x', executable, '-a', '-w', workDir],
      { timeout: 10_000 },
      (err) => resolve(!err),
    );
  });
}
