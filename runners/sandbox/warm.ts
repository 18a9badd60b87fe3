// Warm starts: whether a run may start from the worker's pre-imported python (zygote.ts), and the
// pieces that put it inside the cold chain's isolation. The cold chain still runs — cgroup join,
// prlimit, bwrap, setpriv — but ends in a shell "holder" that only keeps the run's namespaces and
// view alive; the zygote's run process enters them (zygote.py) and the holder exits with its status.
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SandboxRequest } from '../../schemas/sandbox.js';
import { runnerFor } from '../languages/index.js';
import type { ResolvedRunner } from '../languages/profile.js';
import { buildSandboxEnv } from './env.js';
import { seedMatplotlibCache } from './font-cache.js';
import { isolationModeFromEnv, planIsolation, type IsolationPlan } from './plan.js';
import { probeIsolation } from './probe.js';
import type { ProcInfo } from './process-tree.js';
import type { RunCgroup } from './cgroup.js';
import { DEFAULT_WARM_PROFILE, sharedZygote, WARM_PROFILES, type PythonZygote, type WarmProfile } from './zygote.js';

/** The fd the holder reports readiness on (3 is bwrap's seccomp filter). */
export const HOLDER_READY_FD = 4;
/**
 * Prints one byte on fd 4 once it runs inside the finished chain, then exits with what it is told
 * on stdin. The byte is written from a subshell: a builtin's `>&4` in the shell itself points its
 * fd 1 at fd 4 for a moment, and the zygote, taking the holder's fd 1 in that moment, would hand
 * the script the readiness pipe as its stdout (EPIPE once the worker closes it).
 */
const HOLDER_SCRIPT = `(printf r >&${HOLDER_READY_FD}); exec ${HOLDER_READY_FD}>&-; read code; exit "\${code:-125}"`;

/** Variables read once at import time: a run that sets them needs its own interpreter. */
const IMPORT_TIME_ENV = /^(OMP_|OPENBLAS_|MKL_|XLA_|JAX_|MPL|NUMBA_|PYTHON|TENPY|QISKIT|PYSCF)/;

const WARM_OFF = 'warm starts are switched off (PHYSVEC_SANDBOX_WARM=0)';
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

function warmOffReason(): string {
  return process.env.PHYSVEC_SANDBOX_WARM === '0' ? WARM_OFF : 'warm starts are off (PHYSVEC_SANDBOX_WARM=1 switches them on)';
}

/** A python line importing one of the warm profiles' packages (`import a, tenpy`, `from qiskit.x import y`). */
const IMPORT_LINE = /^[ \t]*(?:from|import)[ \t]+([^\n#;]+)/gm;
/** When a script imports several, the one whose preload saves the most. */
const PROFILE_ORDER: WarmProfile[] = ['netket', 'qiskit', 'pyscf', 'tenpy'];

/** Which warm python suits this run: the toolchain its python files import (harnesses import the script beside them). */
export async function warmProfileOf(workDir: string, req: SandboxRequest): Promise<WarmProfile> {
  const found = new Set<string>();
  for (const f of req.files) {
    if (!f.path.endsWith('.py')) continue;
    const text = f.content !== undefined ? String(f.content) : await readFile(path.join(workDir, ...f.path.split('/')), 'utf8').catch(() => '');
    for (const m of text.matchAll(IMPORT_LINE)) for (const name of m[1]!.matchAll(/\b(tenpy|qiskit|qiskit_aer|pyscf|netket)\b/g)) found.add(name[1] === 'qiskit_aer' ? 'qiskit' : name[1]!);
  }
  return PROFILE_ORDER.find((p) => found.has(p)) ?? DEFAULT_WARM_PROFILE;
}

/** Why this run cannot start warm (before asking the zygote), or null. */
export function warmBlocker(req: SandboxRequest, plan: IsolationPlan, uid: number | null, cgroup: RunCgroup | null): string | null {
  if (!warmWanted()) return warmOffReason();
  if (req.language !== 'python') return `no warm interpreter for ${req.language}`;
  // The warm path enters the namespaces bwrap made and applies the same caps itself; without the
  // whole chain there is nothing to enter, so partial isolation stays on the proven cold path.
  if (!plan.bwrap || !plan.seccomp || !plan.prlimit || uid === null || !cgroup) return FULL_CHAIN_NEEDED;
  const setsImportTime = Object.keys(req.env).filter((n) => IMPORT_TIME_ENV.test(n));
  if (setsImportTime.length) return `the request sets ${setsImportTime.join(', ')}, read at import time`;
  return null;
}

let zygoteEnv: Record<string, string> | null = null;

/** The worker's zygote for `runner` and `profile`, its environment built like a run's (no secrets, one thread per library). */
export function zygoteFor(runner: ResolvedRunner, profile: WarmProfile = DEFAULT_WARM_PROFILE): PythonZygote {
  if (!zygoteEnv) {
    const home = path.join(tmpdir(), `physvec-zygote-home-${process.pid}`);
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

export function holderArgv(scriptArgv: string[]): string[] {
  // The script's own argv follows as ignored arguments, so the audit trail says what ran.
  return ['/bin/sh', '-c', HOLDER_SCRIPT, 'physvec-warm-holder', ...scriptArgv];
}

/** The holder: the process of the run's uid in its cgroup whose parent is not (its readiness subshell may still be there). */
export function findHolder(cgroup: RunCgroup, uid: number): number | null {
  // Only the run's few processes are read, not the whole /proc.
  const ofRun = cgroup.pids().map(procInfo).filter((p): p is ProcInfo => p !== null && p.uid === uid);
  const pids = new Set(ofRun.map((p) => p.pid));
  const found = ofRun.filter((p) => !pids.has(p.ppid));
  return found.length === 1 ? found[0]!.pid : null;
}

/** Inode of fd `n` of `pid` (the chain's first process holds the run's own stdout/stderr, never redirected). */
export function fdInode(pid: number, n: number): number {
  return statSync(`/proc/${pid}/fd/${n}`).ino;
}

/**
 * Start the worker's warm python for `profile` now and wait until it has imported its modules (a
 * worker calls this at start for the default profile; the others start at their first run, which
 * goes cold, as do runs arriving earlier). Resolves to what it preloaded, or to the reason warm
 * starts are unavailable.
 */
export async function warmUpSandbox(profile: WarmProfile = DEFAULT_WARM_PROFILE): Promise<{ ok: true; loaded: string[]; failed: string[] } | { ok: false; reason: string }> {
  if (!(profile in WARM_PROFILES)) return { ok: false, reason: `no warm profile ${profile}` };
  if (!warmWanted()) return { ok: false, reason: warmOffReason() };
  const plan = planIsolation(await probeIsolation(), isolationModeFromEnv());
  if (!plan.bwrap || !plan.seccomp || !plan.prlimit || !plan.dropPrivileges || !plan.cgroup) return { ok: false, reason: FULL_CHAIN_NEEDED };
  try {
    const info = await zygoteFor(await runnerFor('python'), profile).ready();
    return { ok: true, loaded: info.loaded, failed: info.failed };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

function procInfo(pid: number): ProcInfo | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { pid, ppid: Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]), uid: Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) };
  } catch {
    return null;
  }
}
