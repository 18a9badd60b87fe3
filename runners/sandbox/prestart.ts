// Chains started ahead of their run. A warm run's fixed cost was mostly the start of its chain —
// work dir, uid lease, run cgroup, cgroup join, prlimit, bwrap, setpriv, holder (~20 ms) — and the
// arming of its process: a fork of the zygote, entry into the namespaces, the cgroup join (each
// write to cgroup.procs waits for an RCU grace period on this kernel: ~5-12 ms), caps, uid and
// seccomp. None of that depends on the script, so a worker that warmed up (warmUpSandbox) keeps
// one run per profile started and armed up to that point, waiting; a run of that profile takes it,
// writes its inputs and hands the waiting process its script.
//
// Each waiting run is one run's and only one's: its own uid, namespaces, /tmp, work dir and
// cgroup, made for it and never used by anything else; taken once, then gone (a new one is
// started after the run). A run takes it only when the chain it would have started itself is the
// same, argument for argument (limits, mounts, hidden paths, uid and cgroup aside from their
// numbers); otherwise it is discarded and the run starts its own. The next one is shaped like the
// last run of its profile. PHYSVEC_SANDBOX_PRESTART=0 stops it (every run starts its own chain);
// =1 starts it in any process (after its first warm run of a profile).
import { rmdirSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { SandboxRequest } from '../../schemas/sandbox.js';
import { runnerFor } from '../languages/index.js';
import { RunCgroup } from './cgroup.js';
import { spawnChain, type ChainProcess } from './chain.js';
import { seedMatplotlibCache } from './font-cache.js';
import { buildLaunch, type Launch, type LaunchRequest } from './launch.js';
import { warmRlimits } from './limits.js';
import { isolationModeFromEnv, planIsolation } from './plan.js';
import { probeIsolation } from './probe.js';
import { killRun } from './process-tree.js';
import { activeRuns, newRunId, releaseRun } from './run-resources.js';
import { allocateSandboxUid, type UidLease } from './uid.js';
import { armInChain, holderReady, warmHostBlocker, warmOffReason, warmWanted, zygoteFor } from './warm.js';
import { chownTree, createWorkDir } from './workdir.js';
import { DEFAULT_WARM_PROFILE, WARM_PROFILES, type ArmedRun, type PythonZygote, type WarmProfile } from './zygote.js';

const MiB = 1024 * 1024;
/** A chain that is not armed by then is given up (a healthy one takes tens of ms). */
const ARM_TIMEOUT_MS = 30_000;
/** After a failed start, the profile's next one waits this long (a broken host fails fast, again and again). */
const RETRY_AFTER_MS = 30_000;

export interface Prestarted {
  profile: WarmProfile;
  zygote: PythonZygote;
  /** The zygote's data segment, which the armed fork carries (counted against RLIMIT_DATA). */
  vmDataBytes: number;
  runId: string;
  workDir: string;
  privateDir: string;
  lease: UidLease;
  cgroup: RunCgroup;
  launch: Launch;
  chain: ChainProcess;
  armed: ArmedRun;
}

/** The shape of the first chain of a profile: a request with every limit at its default. */
const DEFAULT_SHAPE: LaunchRequest = SandboxRequest.parse({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: '' }] });

let enabled = false;
const slots = new Map<WarmProfile, Promise<Prestarted | null>>();
/** Started, armed and not taken. */
const waiting = new Set<Prestarted>();
const failedAt = new Map<WarmProfile, number>();
let exitHooked = false;

/** After warmUpSandbox, unless PHYSVEC_SANDBOX_PRESTART=0; PHYSVEC_SANDBOX_PRESTART=1 also in a process that did not warm up (after its first warm run of a profile). */
export function prestartWanted(): boolean {
  const env = process.env.PHYSVEC_SANDBOX_PRESTART;
  return (enabled || env === '1') && env !== '0' && warmWanted();
}

/** Start a run of `profile` up to its script, shaped like `like` (when none is waiting or starting). */
export function prestart(profile: WarmProfile, like: LaunchRequest = DEFAULT_SHAPE): void {
  if (!prestartWanted() || slots.has(profile) || Date.now() - (failedAt.get(profile) ?? -Infinity) < RETRY_AFTER_MS) return;
  const started = start(profile, like).catch((err: Error) => {
    failedAt.set(profile, Date.now());
    console.warn(`physvec sandbox: no chain started ahead for ${profile} runs (${err.message}); they start their own`);
    return null;
  });
  slots.set(profile, started);
  void started.then((pre) => {
    if (!pre) {
      if (slots.get(profile) === started) slots.delete(profile);
      return;
    }
    // Lost while waiting (killed from outside, its zygote died): cleaned up, and the slot freed.
    const lose = () => {
      if (!waiting.delete(pre)) return;
      if (slots.get(profile) === started) slots.delete(profile);
      void dispose(pre);
    };
    void pre.chain.exited.then(lose, lose);
    void pre.armed.done.then(lose);
  });
}

/** The waiting run of `profile` if `fits` says it is the chain this run would start; otherwise discarded. */
export async function takePrestarted(profile: WarmProfile, fits: (pre: Prestarted) => boolean): Promise<Prestarted | null> {
  const slot = slots.get(profile);
  if (!slot) return null;
  slots.delete(profile);
  const pre = await slot;
  if (!pre || !waiting.delete(pre)) return null;
  if (pre.chain.hasExited || pre.zygote.unavailable || !fits(pre)) {
    void dispose(pre);
    return null;
  }
  pre.chain.ref();
  return pre;
}

async function start(profile: WarmProfile, like: LaunchRequest): Promise<Prestarted | null> {
  const plan = planIsolation(await probeIsolation(), isolationModeFromEnv());
  if (warmHostBlocker(plan) !== null || !plan.cgroup) return null; // (the second test narrows plan.cgroup for below)
  const runner = await runnerFor('python');
  const zygote = zygoteFor(runner, profile);
  // A zygote that died or will not start: runs go cold and say why; nothing to start ahead.
  const info = zygote.unavailable ? null : await zygote.ready().catch(() => null);
  if (!info) return null;
  const runId = newRunId();
  activeRuns.add(runId);
  const { dir: workDir, privateDir } = await createWorkDir(runId);
  let lease: UidLease | null = null;
  let cgroup: RunCgroup | null = null;
  let chain: ChainProcess | null = null;
  let armed: ArmedRun | null = null;
  try {
    const mplConfigDir = runner.env({ workDir, privateDir }).MPLCONFIGDIR;
    if (mplConfigDir) seedMatplotlibCache(mplConfigDir);
    lease = await allocateSandboxUid();
    await chownTree(workDir, lease.uid);
    cgroup = RunCgroup.create(plan.cgroup, runId, { memoryBytes: like.memoryMb * MiB, maxProcesses: like.maxProcesses });
    const launch = buildLaunch(like, runner, plan, lease.uid, workDir, privateDir, cgroup, zygote, false);
    chain = spawnChain(launch, workDir);
    const notReady = await holderReady(chain, ARM_TIMEOUT_MS);
    if (notReady) throw new Error(notReady);
    const made = armInChain(chain, launch, zygote, runId, warmRlimits(like), workDir);
    if (typeof made === 'string') throw new Error(made);
    armed = made;
    const why = await Promise.race([made.armed, sleep(ARM_TIMEOUT_MS, `not armed within ${ARM_TIMEOUT_MS / 1000} s`, { ref: false })]);
    if (why) throw new Error(why);
    const pre: Prestarted = { profile, zygote, vmDataBytes: info.vmDataBytes, runId, workDir, privateDir, lease, cgroup, launch, chain, armed };
    // Waiting, it does not keep the worker alive (it dies with it: bwrap --die-with-parent).
    chain.unref();
    waiting.add(pre);
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', removeWaitingNow);
    }
    return pre;
  } catch (err) {
    armed?.disarm();
    if (chain?.child.pid !== undefined) await killRun(chain.child.pid, lease?.uid ?? null, cgroup);
    await releaseRun(runId, cgroup, lease, workDir);
    throw err;
  }
}

/** End a run that was started ahead and not used: its processes, cgroup, uid and work dir. */
export async function dispose(pre: Prestarted): Promise<void> {
  pre.armed.disarm();
  if (pre.chain.child.pid !== undefined) await killRun(pre.chain.child.pid, pre.lease.uid, pre.cgroup);
  await pre.chain.exited.catch(() => undefined);
  await releaseRun(pre.runId, pre.cgroup, pre.lease, pre.workDir);
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** At the worker's exit (no more event loop): kill what waits and remove its work dir and cgroup. */
function removeWaitingNow(): void {
  for (const pre of waiting) {
    try {
      process.kill(-pre.chain.child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
    const until = Date.now() + 200;
    for (let left = pre.cgroup.pids(); left.length && Date.now() < until; left = pre.cgroup.pids()) {
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      Atomics.wait(pause, 0, 0, 2);
    }
    for (const d of pre.cgroup.dirs) {
      try {
        rmdirSync(d);
      } catch {
        // Busy: the stale-cgroup sweep removes it later.
      }
    }
    rmSync(pre.workDir, { recursive: true, force: true });
  }
  waiting.clear();
}

/**
 * Start the worker's warm python for `profile` now and wait until it has imported its modules (a
 * worker calls this at start for the default profile; the others start at their first run, which
 * goes cold, as do runs arriving earlier). From then on this process keeps a run of each profile
 * it runs started ahead (above). Resolves to what it preloaded, or to why warm starts are unavailable.
 */
export async function warmUpSandbox(profile: WarmProfile = DEFAULT_WARM_PROFILE): Promise<{ ok: true; loaded: string[]; failed: string[] } | { ok: false; reason: string }> {
  if (!(profile in WARM_PROFILES)) return { ok: false, reason: `no warm profile ${profile}` };
  if (!warmWanted()) return { ok: false, reason: warmOffReason() };
  const plan = planIsolation(await probeIsolation(), isolationModeFromEnv());
  const blocked = warmHostBlocker(plan);
  if (blocked) return { ok: false, reason: blocked };
  try {
    const info = await zygoteFor(await runnerFor('python'), profile).ready();
    enabled = true;
    prestart(profile);
    return { ok: true, loaded: info.loaded, failed: info.failed };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}
