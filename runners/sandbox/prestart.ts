// Chains started ahead of their run. A warm run's fixed cost was mostly the start of its chain —
// work dir, uid lease, run cgroup, cgroup join, bwrap, setpriv, holder (~20 ms) — and the
// arming of its process: a fork of the zygote, entry into the namespaces, the cgroup join (each
// write to cgroup.procs waits for an RCU grace period on this kernel: ~5-12 ms), caps, uid and
// seccomp. None of that depends on the script, so a worker that warmed up (warmUpSandbox) keeps a
// pool of runs per profile started and armed up to that point, waiting, as many as it has sandbox
// slots (so a burst of runs up to the slots all find one); a run of that profile takes one, writes
// its inputs and hands the waiting process its script. The pool is filled up again after each run.
//
// Each waiting run is one run's and only one's: its own uid, namespaces, /tmp, work dir and
// cgroup, made for it and never used by anything else; taken once, then gone (a new one is
// started after the run). A run takes one only when the chain it would have started itself is the
// same, argument for argument (limits, mounts, hidden paths, uid and cgroup aside from their
// numbers); otherwise one that does not fit is discarded (so the pool turns over to the shape runs
// now have) and the run starts its own. The next ones are shaped like the last run of their profile. PHYSVEC_SANDBOX_PRESTART=0 stops it (every run starts its own chain);
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
import { expediteRcuOnce } from './rcu-expedite.js';
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
  /** The caps its run process was armed with (warmRlimits of the shape it was started for). */
  rlimits: Record<string, [number, number]>;
}

/** The shape of the first chain of a profile: a request with every limit at its default. */
const DEFAULT_SHAPE: LaunchRequest = SandboxRequest.parse({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: '' }] });

let enabled = false;
/** How many runs of each profile are kept started ahead (the worker's sandbox slots). */
let poolSize = 1;
/** One run started ahead: `pre` once it is armed and waiting. */
interface PoolEntry {
  started: Promise<Prestarted | null>;
  pre: Prestarted | null;
}
/** Per profile, the runs being started or waiting, oldest first. */
const pools = new Map<WarmProfile, PoolEntry[]>();
/** Started, armed and not taken. */
const waiting = new Set<Prestarted>();
const failedAt = new Map<WarmProfile, number>();
let exitHooked = false;

/** After warmUpSandbox, unless PHYSVEC_SANDBOX_PRESTART=0; PHYSVEC_SANDBOX_PRESTART=1 also in a process that did not warm up (after its first warm run of a profile). */
export function prestartWanted(): boolean {
  const env = process.env.PHYSVEC_SANDBOX_PRESTART;
  return (enabled || env === '1') && env !== '0' && warmWanted();
}

function poolOf(profile: WarmProfile): PoolEntry[] {
  let pool = pools.get(profile);
  if (!pool) pools.set(profile, (pool = []));
  return pool;
}

function leave(pool: PoolEntry[], entry: PoolEntry): void {
  const i = pool.indexOf(entry);
  if (i >= 0) pool.splice(i, 1);
}

/** Fill the pool of `profile` with runs started up to their script, shaped like `like`. */
export function prestart(profile: WarmProfile, like: LaunchRequest = DEFAULT_SHAPE): void {
  if (!prestartWanted()) return;
  const pool = poolOf(profile);
  while (pool.length < poolSize && Date.now() - (failedAt.get(profile) ?? -Infinity) >= RETRY_AFTER_MS) startOne(profile, like, pool);
}

function startOne(profile: WarmProfile, like: LaunchRequest, pool: PoolEntry[]): void {
  const entry: PoolEntry = { pre: null, started: Promise.resolve(null) };
  entry.started = start(profile, like).catch((err: Error) => {
    if (Date.now() - (failedAt.get(profile) ?? -Infinity) >= RETRY_AFTER_MS) console.warn(`physvec sandbox: no chain started ahead for ${profile} runs (${err.message}); they start their own`);
    failedAt.set(profile, Date.now());
    return null;
  });
  pool.push(entry);
  void entry.started.then((pre) => {
    if (!pre) return leave(pool, entry);
    entry.pre = pre;
    // Lost while waiting (killed from outside, its zygote died): cleaned up, and its place freed.
    const lose = () => {
      if (!waiting.delete(pre)) return;
      leave(pool, entry);
      void dispose(pre);
    };
    void pre.chain.exited.then(lose, lose);
    void pre.armed.done.then(lose);
  });
}

/**
 * A waiting run of `profile` that `fits` says is the chain this run would start (else the oldest
 * still starting, if it fits when ready), taken out of the pool; the first that does not fit is
 * discarded, so the refill after this run is shaped like it.
 */
export async function takePrestarted(profile: WarmProfile, fits: (pre: Prestarted) => boolean): Promise<Prestarted | null> {
  const pool = pools.get(profile) ?? [];
  const usable = (pre: Prestarted) => !pre.chain.hasExited && !pre.zygote.unavailable && waiting.has(pre);
  let evicted = false;
  for (const entry of pool.filter((e) => e.pre !== null)) {
    const pre = entry.pre!;
    if (usable(pre) && fits(pre)) return takeOut(pool, entry, pre);
    if (!evicted || !usable(pre)) {
      evicted = true;
      leave(pool, entry);
      if (waiting.delete(pre)) void dispose(pre);
    }
  }
  const starting = pool.find((e) => e.pre === null);
  if (!starting || evicted) return null;
  leave(pool, starting);
  const pre = await starting.started;
  if (!pre) return null;
  if (usable(pre) && fits(pre)) return takeOut(pool, starting, pre);
  if (waiting.delete(pre)) void dispose(pre);
  return null;
}

function takeOut(pool: PoolEntry[], entry: PoolEntry, pre: Prestarted): Prestarted {
  leave(pool, entry);
  waiting.delete(pre);
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
    chownTree(workDir, lease.uid);
    cgroup = RunCgroup.create(plan.cgroup, runId, { memoryBytes: like.memoryMb * MiB, maxProcesses: like.maxProcesses });
    const launch = buildLaunch(like, runner, plan, lease.uid, workDir, privateDir, cgroup, zygote, false);
    chain = await spawnChain(launch, workDir);
    const notReady = await holderReady(chain, ARM_TIMEOUT_MS);
    if (notReady) throw new Error(notReady);
    const rlimits = warmRlimits(like);
    const made = armInChain(chain, launch, zygote, runId, rlimits, workDir);
    if (typeof made === 'string') throw new Error(made);
    armed = made;
    const why = await Promise.race([made.armed, sleep(ARM_TIMEOUT_MS, `not armed within ${ARM_TIMEOUT_MS / 1000} s`, { ref: false })]);
    if (why) throw new Error(why);
    const pre: Prestarted = { profile, zygote, vmDataBytes: info.vmDataBytes, runId, workDir, privateDir, lease, cgroup, launch, chain, armed, rlimits };
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
 * worker does this at start for every toolchain it serves, announce.ts; runs arriving earlier go
 * cold). From then on this process keeps a pool of `poolSize` runs of the profile started ahead
 * (above; the worker's sandbox slots, default 1). Resolves to what it preloaded, or to why warm
 * starts are unavailable.
 */
export async function warmUpSandbox(profile: WarmProfile = DEFAULT_WARM_PROFILE, opts: { poolSize?: number } = {}): Promise<{ ok: true; loaded: string[]; failed: string[] } | { ok: false; reason: string }> {
  if (!(profile in WARM_PROFILES)) return { ok: false, reason: `no warm profile ${profile}` };
  if (!warmWanted()) return { ok: false, reason: warmOffReason() };
  const plan = planIsolation(await probeIsolation(), isolationModeFromEnv());
  const blocked = warmHostBlocker(plan);
  if (blocked) return { ok: false, reason: blocked };
  if (plan.cgroup) expediteRcuOnce(); // the runs' cgroup moves (rcu-expedite.ts)
  if (opts.poolSize !== undefined) poolSize = Math.max(1, Math.floor(opts.poolSize));
  try {
    const info = await zygoteFor(await runnerFor('python'), profile).ready();
    enabled = true;
    prestart(profile);
    return { ok: true, loaded: info.loaded, failed: info.failed };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}
