// A run's chain as a process: spawned in its own session and process group (so the whole group
// can be signalled at once), its seccomp filter written to bwrap's fd 3, and its exit and the close
// of its pipes caught from the start, so a chain started ahead of its run (prestart.ts) loses
// neither while it waits.
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { BWRAP_INFO_FD, HOLDER_READY_FD } from './holder.js';
import { chainLauncher, type ChainChild, type StdioKind } from './launcher.js';
import { SECCOMP_FD, WARM_CHAIN_ENV, type Launch } from './launch.js';
import { atNeighbourPriority, shareWorkerPriority, workerRaised } from '../../lib/process-priority.js';

export interface ChainProcess {
  child: ChainChild;
  /** Its exit (code, signal); rejects when it could not be started. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Every pipe to it is closed (no straggler holds its stdout/stderr any more). */
  closed: Promise<void>;
  /** A warm chain's: bwrap's first process (the run's pid namespace's init), or why it was not reported. */
  nsInit: Promise<number | string>;
  readonly hasExited: boolean;
  /** While it waits for its run: let the worker exit (the chain dies with it: bwrap --die-with-parent). */
  unref(): void;
  ref(): void;
}

export const CHAIN_PRIORITY_ENV = 'PHYSVEC_SANDBOX_CHAIN_PRIORITY';

/**
 * Whether a warm run's set-up (its chain, and the arming of its process up to the script) runs at
 * the worker's priority: when the worker raised itself, unless PHYSVEC_SANDBOX_CHAIN_PRIORITY=neighbours.
 */
export function setUpAtWorkerPriority(): boolean {
  return workerRaised() && process.env[CHAIN_PRIORITY_ENV] !== 'neighbours';
}

export async function spawnChain(launch: Launch, workDir: string): Promise<ChainProcess> {
  const warm = launch.zygote !== null;
  // A worker that raised its own priority starts scripts at the neighbours' (lib/process-priority.ts).
  // A warm chain runs no script (bwrap, setpriv, the holder: the script is a fork of the warm python,
  // in a session of its own at the neighbours' priority), so it keeps the worker's: its ~20 ms of
  // execs and set-up are not queued behind the neighbours (issue 24.5, the fixed cost on a busy host).
  // PHYSVEC_SANDBOX_CHAIN_PRIORITY=neighbours puts warm chains at the neighbours' priority too (what
  // scripts/bench-sandbox.ts compares against).
  const atWorkerPriority = warm && setUpAtWorkerPriority();
  const argv = atWorkerPriority ? [...launch.argv] : atNeighbourPriority(launch.argv);
  const env = warm ? { ...WARM_CHAIN_ENV } : launch.env;
  const seccomp = launch.seccompFilter ? 'r' : null;
  const kinds: StdioKind[] = warm ? ['r', 'w', 'w', seccomp, 'w', 'w'] : ['null', 'w', 'w', seccomp];
  const child = (await launched(argv, env, workDir, kinds)) ?? spawn(argv[0]!, argv.slice(1), {
    cwd: workDir,
    env,
    detached: true,
    stdio: kinds.map((k) => (k === 'r' || k === 'w' ? 'pipe' : 'ignore')),
  });
  if (atWorkerPriority && child.pid) shareWorkerPriority(child.pid);
  if (launch.seccompFilter) {
    const filterPipe = child.stdio[SECCOMP_FD] as NodeJS.WritableStream;
    // If bwrap dies before reading it, the write fails; the run's exit status tells the rest.
    filterPipe.on('error', () => undefined);
    filterPipe.end(launch.seccompFilter);
  }
  let hasExited = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', (err: Error) => {
      hasExited = true;
      reject(err);
    });
    child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      hasExited = true;
      resolve({ code, signal });
    });
  });
  exited.catch(() => undefined);
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const nsInit = warm ? bwrapChildPid(fdStream(child, BWRAP_INFO_FD)) : Promise.resolve('not a warm chain');
  const streams = () => [child.stdin, child.stdout, child.stderr, child.stdio[HOLDER_READY_FD], fdStream(child, BWRAP_INFO_FD)].filter(Boolean) as unknown as Socket[];
  return {
    child,
    exited,
    closed,
    nsInit,
    get hasExited() {
      return hasExited;
    },
    unref() {
      child.unref();
      for (const s of streams()) s.unref?.();
    },
    ref() {
      child.ref();
      for (const s of streams()) s.ref?.();
    },
  };
}

/** Started by the worker's launcher (launcher.ts), or undefined when it is off or unavailable (node then spawns it). */
async function launched(argv: string[], env: Record<string, string>, cwd: string, kinds: StdioKind[]): Promise<ChainChild | undefined> {
  const launcher = chainLauncher();
  if (!launcher || launcher.unavailable) return undefined;
  try {
    return await launcher.spawn(argv, env, cwd, kinds);
  } catch {
    // The launcher is gone, or this chain could not be started by it: node tries, and reports what fails.
    return undefined;
  }
}

const fdStream = (child: ChainChild, fd: number) => ((child.stdio as unknown as (Readable | null | undefined)[])[fd] ?? null);

/**
 * The `"child-pid"` bwrap writes on its info fd. Read to its end: bwrap writes the object in several
 * pieces (the pid, then its namespace ids), and a pipe closed after the first would kill it (SIGPIPE).
 */
function bwrapChildPid(info: Readable | null): Promise<number | string> {
  if (!info) return Promise.resolve('no info pipe');
  return new Promise((resolve) => {
    let text = '';
    info.on('error', () => undefined);
    info.on('data', (c: Buffer) => {
      if (text.length > 4096) return;
      text += c.toString();
      const m = /"child-pid":\s*(\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    info.once('end', () => resolve('bwrap ended without reporting its first process'));
  });
}
