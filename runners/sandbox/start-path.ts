// How a run starts, decided once per run (chooseStart) and dispatched on everywhere after: in the
// chain started ahead of it (pre-started, prestart.ts), warm in a chain of its own (the zygote forks
// the script into it, warm.ts), or cold (the chain ends in the interpreter itself), with the reason.
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { SandboxRequest, SandboxResult } from '../../schemas/sandbox.js';
import type { ResolvedRunner } from '../languages/profile.js';
import { warmRlimits } from './limits.js';
import { buildLaunch } from './launch.js';
import type { IsolationPlan } from './plan.js';
import { prestartWanted, takePrestarted, type Prestarted } from './prestart.js';
import type { RunHold } from './run-hold.js';
import { warmBlocker, warmProfileOf, warmProfileOfRequest, zygoteFor } from './warm.js';
import { sandboxRoot } from './workdir.js';
import type { PythonZygote, WarmProfile } from './zygote.js';

const MiB = 1024 * 1024;

export type StartPath =
  | { path: 'pre-started'; pre: Prestarted }
  | { path: 'warm'; profile: WarmProfile; zygote: PythonZygote }
  /** `profile`: the warm profile the run would have used, when it got as far as choosing one. */
  | { path: 'cold'; reason: string; profile: WarmProfile | null };

/**
 * How long a run waits for a warm python that is still importing; then it goes cold (the import
 * goes on for later runs). PHYSVEC_SANDBOX_WARM_WAIT_MS changes it (e.g. to check a suite warm).
 */
function warmWaitMs(): number {
  const v = Number(process.env.PHYSVEC_SANDBOX_WARM_WAIT_MS);
  return Number.isFinite(v) && v >= 0 ? v : 2_000;
}

async function readyWithin(zygote: PythonZygote, ms: number): Promise<{ vmDataBytes: number }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('it is still importing its modules (a worker warms it at start with warmUpSandbox)')), ms);
  });
  try {
    return await Promise.race([zygote.ready(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The fork inherits the zygote's data segment, counted against RLIMIT_DATA like a cold run's own imports. */
function tooBigToFork(vmDataBytes: number, req: SandboxRequest): boolean {
  return vmDataBytes > (req.memoryMb * MiB) / 2;
}

/** The run started ahead of this one that is exactly the chain it would start, taken (prestart.ts); else null. */
export async function takePrestartedFor(req: SandboxRequest, runner: ResolvedRunner, plan: IsolationPlan, store: ArtifactStore): Promise<Prestarted | null> {
  if (!prestartWanted() || warmBlocker(req, plan, plan.dropPrivileges, plan.cgroup !== null) !== null) return null;
  const profile = await warmProfileOfRequest(req, store);
  return takePrestarted(profile, (pre) => {
    if (pre.zygote !== zygoteFor(runner, profile) || tooBigToFork(pre.vmDataBytes, req)) return false;
    const own = buildLaunch(req, runner, plan, pre.lease.uid, pre.workDir, pre.privateDir, pre.cgroup, pre.zygote, false);
    // The chain argument for argument, and the caps its run process was armed with (a warm chain
    // has no prlimit in its argv to tell them apart).
    return path.dirname(pre.workDir) === sandboxRoot() && isDeepStrictEqual(own.argv, pre.launch.argv) && isDeepStrictEqual(warmRlimits(req), pre.rlimits);
  });
}

/** The start path of a run whose inputs are written and whose uid and cgroup are settled. */
export async function chooseStart(req: SandboxRequest, runner: ResolvedRunner, hold: RunHold): Promise<StartPath> {
  if (hold.taken) return { path: 'pre-started', pre: hold.taken };
  const blocker = warmBlocker(req, hold.plan, hold.lease !== null, hold.cgroup !== null);
  if (blocker) return { path: 'cold', reason: blocker, profile: null };
  const profile = await warmProfileOf(hold.workDir, req);
  const zygote = zygoteFor(runner, profile);
  try {
    const info = await readyWithin(zygote, warmWaitMs());
    if (tooBigToFork(info.vmDataBytes, req)) return { path: 'cold', reason: `the warm python holds ${Math.round(info.vmDataBytes / MiB)} MiB, more than half this run's memory cap`, profile };
  } catch (err) {
    return { path: 'cold', reason: `the warm python is unavailable: ${(err as Error).message}`, profile };
  }
  return { path: 'warm', profile, zygote };
}

/** A warm start that could not make the run process (nothing of the script ran): the same run, cold. */
export function coldAfterFailedWarm(start: StartPath, why: string): StartPath {
  return { path: 'cold', reason: `the warm start failed (${why})`, profile: profileOf(start) };
}

/** The zygote that runs the script, or null on a cold start. */
export function zygoteOf(start: StartPath): PythonZygote | null {
  if (start.path === 'pre-started') return start.pre.zygote;
  return start.path === 'warm' ? start.zygote : null;
}

/** The warm profile the run used or would have used: the next run of it gets a chain started ahead. */
export function profileOf(start: StartPath): WarmProfile | null {
  return start.path === 'pre-started' ? start.pre.profile : start.profile;
}

export function reportedStart(start: StartPath): NonNullable<SandboxResult['start']> {
  if (start.path === 'cold') return { path: 'cold', reason: start.reason };
  return { path: 'warm', reason: null, chain: start.path === 'pre-started' ? 'pre-started' : 'per-run' };
}

/** One line for checking which path a test suite really took (PHYSVEC_SANDBOX_TRACE_START=1). */
export function traceStart(start: StartPath): void {
  if (process.env.PHYSVEC_SANDBOX_TRACE_START !== '1') return;
  const r = reportedStart(start);
  console.error(`# sandbox start: ${r.path}${r.chain ? ` (${r.chain} chain)` : ''}${start.path === 'cold' ? ` (${start.reason})` : ''}`);
}
