// The worker's side of the warm Python (zygote.py): started lazily once per worker process, as
// root outside any namespace, with a clean environment; spoken to over its stdin/stdout only. A
// run hands it a root-only payload file and gets back the run's wait status. If the zygote is
// missing, will not start or dies, runs go the cold way and say why.
import os from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { zygotePayloadDir } from './zygote-dirs.js';
import { atNeighbourPriority, workerRaised } from '../../lib/process-priority.js';

const BASE = ['numpy', 'scipy', 'scipy.linalg', 'scipy.sparse', 'scipy.sparse.linalg', 'matplotlib', 'matplotlib.pyplot'];

/**
 * One warm python per toolchain a script imports, each preloading only fork-safe modules: nothing
 * that starts a thread or a JAX backend at import (zygote.py refuses to fork with a second thread).
 * Checked on this install: each list imports with one thread and no JAX backend. netket itself is
 * not preloaded: `import netket` initialises the JAX CPU backend (16 threads), after which a fork
 * is not safe; jax, flax, optax and numba import without doing so, so they are.
 */
export const WARM_PROFILES = {
  tenpy: [...BASE, 'tenpy'],
  qiskit: [...BASE, 'qiskit', 'qiskit.quantum_info', 'qiskit.circuit.library', 'qiskit_aer'],
  pyscf: [...BASE, 'pyscf', 'pyscf.gto', 'pyscf.scf', 'pyscf.dft'],
  netket: [...BASE, 'jax', 'jax.numpy', 'flax', 'flax.linen', 'optax', 'numba'],
} as const satisfies Record<string, readonly string[]>;
export type WarmProfile = keyof typeof WARM_PROFILES;
/** The profile of a script that imports none of the others (the worker warms it at start). */
export const DEFAULT_WARM_PROFILE: WarmProfile = 'tenpy';
const READY_TIMEOUT_MS = 180_000;
const ZYGOTE_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'zygote.py');

/** What arms a run: its process is made inside the holder's chain, with the run's caps, and waits for its script. */
export interface ArmRequest {
  /** null: not up yet; the run process is forked into `nsPid`'s pid namespace and `ArmedRun.holder` names it later. */
  holderPid: number | null;
  /** bwrap's first process (the run's pid namespace's init; chain.ts nsInit), when holderPid is null. */
  nsPid: number | null;
  /** Inodes the holder's fd 1 and 2 must have (the run's stdout and stderr), checked before use. */
  stdioInodes: [number, number];
  uid: number;
  /** The holder's own uid (uid.ts holderUidOf), checked before its namespaces are entered. */
  holderUid: number;
  procsFiles: string[];
  /** resource.RLIMIT_* name → [soft, hard] (-1: unlimited). */
  rlimits: Record<string, [number, number]>;
  seccompHex: string;
  workDir: string;
  /** The set-up of the run at this nice (the worker's), the script at the warm python's; null: all at the warm python's. */
  armNice: number | null;
}

/** What an armed run then runs. */
export interface GoRequest {
  env: Record<string, string>;
  workDir: string;
  entry: string;
  args: string[];
}

export type WarmReport = { exitCode: number | null; signal: number | null } | { error: string };

/** A run being armed or armed: `go` starts its script (once), `disarm` ends it unrun. */
export interface ArmedRun {
  /** Settles once the run process is set up and waiting (null) or could not be (the reason). */
  armed: Promise<string | null>;
  /** `started` settles once the script was handed over (null) or could not be (nothing ran); `done` with its wait status. */
  go(req: GoRequest): { started: Promise<string | null>; done: Promise<WarmReport> };
  /** Names the holder of a run armed without one (then its view is entered and its caps applied); a string says why it could not be sent. */
  holder(pid: number): string | null;
  disarm(): void;
  /** Settles when the run is over: ended, disarmed or lost (the zygote died before it started). */
  done: Promise<WarmReport>;
}

interface Pending {
  /** The script was handed over: its report comes from its own forked parent, which outlives the zygote. */
  running: boolean;
  armed: (err: string | null) => void;
  started: (err: string | null) => void;
  done: (r: WarmReport) => void;
}

export interface ZygoteInfo {
  loaded: string[];
  failed: string[];
  vmDataBytes: number;
}

export class PythonZygote {
  private child: ChildProcess | null = null;
  private readyPromise: Promise<ZygoteInfo> | null = null;
  private dead: string | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly payloadDir = zygotePayloadDir();

  /** `background`: it imports at a lower CPU priority (restored before it forks anything). */
  constructor(private readonly python: string, private readonly env: Record<string, string>, private readonly preload: readonly string[], private readonly background = false) {}

  /** Why warm runs are impossible now, or null. */
  get unavailable(): string | null {
    return this.dead;
  }

  ready(): Promise<ZygoteInfo> {
    if (this.dead) return Promise.reject(new Error(this.dead));
    if (!this.readyPromise) {
      this.readyPromise = this.start();
      // Callers handle it; this keeps a rejection nobody awaits yet from being reported as unhandled.
      this.readyPromise.catch(() => undefined);
    }
    return this.readyPromise;
  }

  private start(): Promise<ZygoteInfo> {
    mkdirSync(this.payloadDir, { recursive: true, mode: 0o700 });
    // At the neighbours' priority: the runs it forks are scripts (lib/process-priority.ts).
    // It imports at the neighbours' priority; then (--setup-nice) its own work for each run — the
    // forks, the arming — at the worker's, while every run drops back before its script (zygote.py).
    const setupNice = workerRaised() ? [`--setup-nice=${os.getPriority()}`] : [];
    const argv = atNeighbourPriority([this.python, '-u', ZYGOTE_SCRIPT, this.preload.join(','), ...(this.background ? ['--background'] : []), ...setupNice]);
    const child = spawn(argv[0]!, argv.slice(1), {
      env: this.env,
      cwd: '/',
      stdio: ['pipe', 'pipe', 'inherit'],
      // A session of its own: Ctrl-C in the terminal of a foreground `physvec reproduce` (SIGINT to the
      // terminal's process group) must not reach the warm python, which would print KeyboardInterrupt
      // tracebacks; it still dies with the worker (PDEATHSIG) and is killed by pid.
      detached: true,
    });
    this.child = child;
    // Once ready, the worker may exit with the zygote waiting for work (it dies with the worker,
    // PDEATHSIG); a run in flight keeps the loop alive through its own holder process.
    const letWorkerExit = () => {
      child.unref();
      for (const stream of [child.stdin, child.stdout]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
    };
    return new Promise<ZygoteInfo>((resolve, reject) => {
      const timer = setTimeout(() => fail(`the warm python did not get ready within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
      timer.unref();
      const fail = (why: string) => {
        clearTimeout(timer);
        this.die(why);
        reject(new Error(why));
      };
      child.once('error', (err) => fail(`the warm python could not start: ${err.message}`));
      child.once('exit', (code, sig) => fail(`the warm python exited (${sig ?? code})`));
      // Closed once the zygote and every per-run parent are gone: no report can come any more.
      child.stdout!.once('close', () => this.failPending('the warm python and the run\'s parent are gone', true));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        let msg: Record<string, unknown>;
        try {
          msg = JSON.parse(line) as Record<string, unknown>;
        } catch {
          return;
        }
        if ('ready' in msg) {
          clearTimeout(timer);
          letWorkerExit();
          if (msg.ready === true) resolve({ loaded: msg.loaded as string[], failed: msg.failed as string[], vmDataBytes: Number(msg.vmDataBytes) });
          else fail(String(msg.error));
          return;
        }
        const p = this.pending.get(String(msg.id));
        if (!p) return;
        if ('error' in msg) {
          p.armed(String(msg.error));
          p.started(String(msg.error));
          p.done({ error: String(msg.error) });
          this.pending.delete(String(msg.id));
        } else if (msg.armed === true) {
          p.armed(null);
        } else if (msg.started === true) {
          p.running = true;
          p.started(null);
        } else if ('exitCode' in msg) {
          p.done({ exitCode: msg.exitCode as number | null, signal: msg.signal as number | null });
          this.pending.delete(String(msg.id));
        }
      });
    });
  }

  private die(why: string): void {
    this.dead ??= why;
    this.failPending(why, false);
    try {
      this.child?.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }

  private failPending(why: string, evenRunning: boolean): void {
    for (const [id, p] of this.pending) {
      if (p.running && !evenRunning) continue;
      p.armed(why);
      p.started(why);
      p.done({ error: why });
      this.pending.delete(id);
    }
  }

  /**
   * Arm one run: a per-run child forks the run process into the holder's namespaces, view and
   * cgroup, gives it the run's uid, rlimits and seccomp filter, and keeps it waiting for `go`.
   */
  arm(id: string, req: ArmRequest): ArmedRun {
    let armed!: (e: string | null) => void;
    let started!: (e: string | null) => void;
    let done!: (r: WarmReport) => void;
    const a = new Promise<string | null>((r) => (armed = r));
    const s = new Promise<string | null>((r) => (started = r));
    const d = new Promise<WarmReport>((r) => (done = r));
    const send = (line: string): string | null => {
      if (this.dead || !this.child?.stdin?.writable) return this.dead ?? 'the warm python is not running';
      this.child.stdin.write(line);
      return null;
    };
    let went = false;
    const run: ArmedRun = {
      armed: a,
      done: d,
      go: (goReq) => {
        if (went) throw new Error(`run ${id} was already started`);
        went = true;
        const why = this.pending.has(id) ? send(`go ${id} ${this.payload(`${id}.go`, goReq)}\n`) : this.dead ?? 'the armed run is gone';
        if (why) {
          started(why);
          done({ error: why });
          this.pending.delete(id);
        }
        return { started: s, done: d };
      },
      holder: (pid) => (this.pending.has(id) ? send(`holder ${id} ${pid}\n`) : this.dead ?? 'the armed run is gone'),
      disarm: () => {
        if (!this.pending.has(id) || went) return;
        went = true;
        send(`disarm ${id}\n`);
        const why = 'disarmed';
        armed(why);
        started(why);
        done({ error: why });
        this.pending.delete(id);
      },
    };
    this.pending.set(id, { running: false, armed, started, done });
    const why = send(`arm ${id} ${this.payload(`${id}.arm`, req)}\n`);
    if (why) {
      this.pending.delete(id);
      armed(why);
      started(why);
      done({ error: why });
    }
    return run;
  }

  /** A root-only file the per-run child reads (the main loop never parses a request). */
  private payload(name: string, body: unknown): string {
    const file = path.join(this.payloadDir, `${name}.json`);
    writeFileSync(file, JSON.stringify(body), { mode: 0o600 });
    return file;
  }
}

const shared = new Map<WarmProfile, { zygote: PythonZygote; diedAt: number }>();
/** A zygote that died is replaced for later runs, but not more often than this (a broken install fails fast, again and again). */
const RESTART_AFTER_MS = 30_000;

function preloadOf(profile: WarmProfile): readonly string[] {
  const fromEnv = process.env.PHYSVEC_SANDBOX_PRELOAD?.split(',').map((s) => s.trim()).filter(Boolean);
  return profile === DEFAULT_WARM_PROFILE && fromEnv ? fromEnv : WARM_PROFILES[profile];
}

/** The worker's warm python for `profile`, started on first use. */
export function sharedZygote(python: string, env: Record<string, string>, profile: WarmProfile = DEFAULT_WARM_PROFILE): PythonZygote {
  const entry = shared.get(profile);
  if (entry && !entry.zygote.unavailable) return entry.zygote;
  if (entry) {
    entry.diedAt ||= Date.now();
    if (Date.now() - entry.diedAt < RESTART_AFTER_MS) return entry.zygote;
  }
  // The default profile's python serves a worker's first runs; the other toolchains' warm up behind it, politely.
  const zygote = new PythonZygote(python, env, preloadOf(profile), profile !== DEFAULT_WARM_PROFILE);
  shared.set(profile, { zygote, diedAt: 0 });
  return zygote;
}
