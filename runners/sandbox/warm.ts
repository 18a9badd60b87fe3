// Warm starts: whether a run may start from the worker's pre-imported python (zygote.ts), and the
// pieces that put it inside the cold chain's isolation. The cold chain still runs — cgroup join,
// bwrap, setpriv (no prlimit: the run process sets its own caps) — but ends in a shell holder
// (holder.ts) that only keeps the run's namespaces and view alive; the zygote's run process enters
// them (zygote.py), is armed there with the run's caps, and runs the script when told to; the holder
// exits with its status. A chain may be started and armed ahead of its run (prestart.ts).
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { SandboxRequest } from '../../schemas/sandbox.js';
import type { ResolvedRunner } from '../languages/profile.js';
import { setUpAtWorkerPriority, type ChainProcess } from './chain.js';
import { buildSandboxEnv } from './env.js';
import { seedMatplotlibCache } from './font-cache.js';
import { fdInode, findHolder, HOLDER_READY_FD } from './holder.js';
import type { Launch } from './launch.js';
import type { IsolationPlan } from './plan.js';
import { holderUidOf } from './uid.js';
import { removeZygoteDirsOnExit, sweepStaleZygoteDirs, zygoteHomeDir } from './zygote-dirs.js';
import { DEFAULT_WARM_PROFILE, sharedZygote, type ArmedRun, type ArmRequest, type PythonZygote, type WarmProfile } from './zygote.js';

/** Variables read once at import time: a run that sets them needs its own interpreter. */
const IMPORT_TIME_ENV = /^(OMP_|OPENBLAS_|MKL_|XLA_|JAX_|MPL|NUMBA_|PYTHON|TENPY|QISKIT|PYSCF)/;

export const WARM_OFF = 'warm starts are switched off (PHYSVEC_SANDBOX_WARM=0)';
const FULL_CHAIN_NEEDED = 'warm starts need the full isolation chain (bwrap, seccomp, prlimit, own uid, run cgroup)';

/**
 * Warm by default (checked warm: tests/sandbox with the hostile scripts, the worker-kill and
 * infrastructure drills, the demo and `tasks validate data --run` gave the cold path's verdicts);
 * PHYSVEC_SANDBOX_WARM=0 forces cold starts.
 */
const WARM_BY_DEFAULT = true;

export function warmWanted(): boolean {
  const v = process.env.PHYSVEC_SANDBOX_WARM;
  if (v === '0') return false;
  if (v === '1') return true;
  return WARM_BY_DEFAULT;
}

export function warmOffReason(): string {
  return process.env.PHYSVEC_SANDBOX_WARM === '0' ? WARM_OFF : 'warm starts are off (PHYSVEC_SANDBOX_WARM=1 switches them on)';
}

/** A python line importing one of the warm profiles' packages (`import a, tenpy`, `from qiskit.x import y`). */
const IMPORT_LINE = /^[ \t]*(?:from|import)[ \t]+([^\n#;]+)/gm;
/** When a script imports several, the one whose preload saves the most. */
const PROFILE_ORDER: WarmProfile[] = ['netket', 'qiskit', 'pyscf', 'tenpy'];

/** The profile whose packages `texts` (the run's python files) import. */
function profileOfTexts(texts: string[]): WarmProfile {
  const found = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(IMPORT_LINE)) for (const name of m[1]!.matchAll(/\b(tenpy|qiskit|qiskit_aer|pyscf|netket)\b/g)) found.add(name[1] === 'qiskit_aer' ? 'qiskit' : name[1]!);
  }
  return PROFILE_ORDER.find((p) => found.has(p)) ?? DEFAULT_WARM_PROFILE;
}

/** Which warm python suits this run: the toolchain its python files import (harnesses import the script beside them). */
export async function warmProfileOf(workDir: string, req: SandboxRequest): Promise<WarmProfile> {
  const py = req.files.filter((f) => f.path.endsWith('.py'));
  return profileOfTexts(await Promise.all(py.map((f) => (f.content !== undefined ? Promise.resolve(String(f.content)) : readFile(path.join(workDir, ...f.path.split('/')), 'utf8').catch(() => '')))));
}

/** The same, before the inputs are written (files given by reference are read from the store). */
export async function warmProfileOfRequest(req: SandboxRequest, store: ArtifactStore): Promise<WarmProfile> {
  const py = req.files.filter((f) => f.path.endsWith('.py'));
  return profileOfTexts(await Promise.all(py.map(async (f) => (f.content !== undefined ? String(f.content) : (await store.get(f.ref!).catch(() => Buffer.alloc(0))).toString('utf8')))));
}

/** Whether `plan` has the whole chain a warm run enters (bwrap's namespaces, seccomp, prlimit, its own uid and cgroup). */
function hasFullChain(plan: IsolationPlan, hasUid = Boolean(plan.dropPrivileges), hasCgroup = Boolean(plan.cgroup)): boolean {
  return Boolean(plan.bwrap && plan.seccomp && plan.prlimit && hasUid && hasCgroup);
}

/** Why no run under `plan` can start warm (switched off, or not the whole chain), or null. */
export function warmHostBlocker(plan: IsolationPlan): string | null {
  if (!warmWanted()) return warmOffReason();
  return hasFullChain(plan) ? null : FULL_CHAIN_NEEDED;
}

/** Why this run cannot start warm (before asking the zygote), or null; `hasUid`/`hasCgroup`: the run has its own uid and cgroup. */
export function warmBlocker(req: SandboxRequest, plan: IsolationPlan, hasUid: boolean, hasCgroup: boolean): string | null {
  if (!warmWanted()) return warmOffReason();
  if (req.language !== 'python') return `no warm interpreter for ${req.language}`;
  // The warm path enters the namespaces bwrap made and applies the same caps itself; without the
  // whole chain there is nothing to enter, so partial isolation stays on the proven cold path.
  if (!hasFullChain(plan, hasUid, hasCgroup)) return FULL_CHAIN_NEEDED;
  const setsImportTime = Object.keys(req.env).filter((n) => IMPORT_TIME_ENV.test(n));
  if (setsImportTime.length) return `the request sets ${setsImportTime.join(', ')}, read at import time`;
  return null;
}

let zygoteEnv: Record<string, string> | null = null;

/** The worker's zygote for `runner` and `profile`, its environment built like a run's (no secrets, one thread per library). */
export function zygoteFor(runner: ResolvedRunner, profile: WarmProfile = DEFAULT_WARM_PROFILE): PythonZygote {
  if (!zygoteEnv) {
    // This worker's scratch dirs go when it exits; those of workers killed before go now.
    sweepStaleZygoteDirs();
    removeZygoteDirsOnExit();
    const home = zygoteHomeDir();
    zygoteEnv = buildSandboxEnv({
      workDir: home,
      privateDir: home,
      tmpDir: '/tmp',
      pathDirs: runner.pathDirs,
      runnerEnv: runner.env({ workDir: home, privateDir: home }),
      requestEnv: {},
    });
    if (zygoteEnv.MPLCONFIGDIR) seedMatplotlibCache(zygoteEnv.MPLCONFIGDIR);
  }
  return sharedZygote(runner.executable, zygoteEnv, profile);
}

/** Settles null once the chain's holder runs inside the finished chain, or with why it never will. */
export function holderReady(chain: ChainProcess, timeoutMs: number): Promise<string | null> {
  const ready = chain.child.stdio[HOLDER_READY_FD] as Readable;
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle('the holder did not report within ' + timeoutMs + ' ms'), timeoutMs);
    timer.unref();
    const settle = (why: string | null) => {
      clearTimeout(timer);
      ready.removeAllListeners('data');
      ready.destroy();
      resolve(why);
    };
    ready.on('error', () => undefined);
    ready.once('data', () => settle(null));
    ready.once('end', () => settle('the chain ended before its holder was ready'));
  });
}

/** Arm the zygote's run process in the chain whose holder is ready; a string says why it cannot be. */
export function armInChain(chain: ChainProcess, launch: Launch, zygote: PythonZygote, runId: string, rlimits: Record<string, [number, number]>, workDir: string): ArmedRun | string {
  const holder = holderOf(launch);
  if (holder === null) return HOLDER_NOT_FOUND;
  const req = armRequest(chain, launch, rlimits, workDir, holder, null);
  return typeof req === 'string' ? req : zygote.arm(runId, req);
}

/**
 * Arm it in a chain still starting, from bwrap's first process (`nsPid`, chain.ts nsInit): the run
 * process is forked into the run's pid namespace while bwrap builds the view; `holderUp` then names
 * the holder once it reports, and the run process enters its view.
 */
export function armInStartingChain(chain: ChainProcess, launch: Launch, zygote: PythonZygote, runId: string, rlimits: Record<string, [number, number]>, workDir: string, nsPid: number): ArmedRun | string {
  const req = armRequest(chain, launch, rlimits, workDir, null, nsPid);
  return typeof req === 'string' ? req : zygote.arm(runId, req);
}

/** Names the ready holder to a run armed in its starting chain; a string says why it cannot. */
export function holderUp(armed: ArmedRun, launch: Launch): string | null {
  const holder = holderOf(launch);
  return holder === null ? HOLDER_NOT_FOUND : armed.holder(holder);
}

const HOLDER_NOT_FOUND = 'the holder process was not found in the run cgroup';

const holderOf = (launch: Launch) => findHolder(launch.cgroup!, holderUidOf(launch.uid!));

/** The request, or why it cannot be made (the chain's first process is gone: it ended, or was killed). */
function armRequest(chain: ChainProcess, launch: Launch, rlimits: Record<string, [number, number]>, workDir: string, holderPid: number | null, nsPid: number | null): ArmRequest | string {
  let stdioInodes: [number, number];
  try {
    stdioInodes = [fdInode(chain.child.pid!, 1), fdInode(chain.child.pid!, 2)];
  } catch (err) {
    return `the chain's first process is gone (${(err as Error).message})`;
  }
  return {
    holderPid,
    nsPid,
    stdioInodes,
    uid: launch.uid!,
    holderUid: holderUidOf(launch.uid!),
    procsFiles: launch.cgroup!.procsFiles,
    rlimits,
    seccompHex: launch.seccompFilter!.toString('hex'),
    workDir,
    armNice: setUpAtWorkerPriority() ? os.getPriority() : null,
  };
}
