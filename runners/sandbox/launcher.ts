// The worker's side of the chain launcher (launcher.py): a small process that forks the sandbox
// chains, because a fork of the worker itself (node's spawn) copies the worker's page tables —
// 6.8 ms at 200 MiB of resident memory on this VM, 24 ms at 600 MiB — on every run's path. Each chain
// comes back as a ChainChild: its pid, its pipes (the worker opens its ends through
// /proc/<launcher>/fd) and its wait status. Started on first use; if it cannot start, chains are
// spawned by node as before. If it dies after it ran, the chains it had started are reported lost
// (ChainLostError: an infrastructure fault the activity retries, never a result and never the run's
// own failure) and the next chain starts a new launcher (at most MAX_RESTARTS times a worker's life).
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, openSync, constants as fsConstants } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { venvPython } from '../../lib/paths.js';
import { shareWorkerPriority } from '../../lib/process-priority.js';

const LAUNCHER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'launcher.py');
const READY_TIMEOUT_MS = 60_000;
/** A launcher that keeps dying is left for node's spawn after this many new starts. */
const MAX_RESTARTS = 3;
export const LAUNCHER_ENV = 'PHYSVEC_SANDBOX_LAUNCHER';

/** A chain's end can no longer be known: the launcher that started (and reaps) it died. The run is retried; it is no result of the script. */
export class ChainLostError extends Error {
  override readonly name = 'ChainLostError';
}

/** Per fd of the child from 0: a pipe it reads ('r'), one it writes ('w'), /dev/null, or not open. */
export type StdioKind = 'r' | 'w' | 'null' | null;

/** What the sandbox uses of a chain's process (a node ChildProcess has it too). */
export interface ChainChild extends EventEmitter {
  readonly pid?: number | undefined;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  readonly stdio: readonly (Readable | Writable | null | undefined)[];
  unref(): void;
  ref(): void;
}

const Reply = z.union([
  z.object({ ready: z.literal(true), pid: z.number().int() }),
  z.object({ id: z.string(), pid: z.number().int(), fds: z.array(z.number().int().nullable()) }),
  z.object({ id: z.string(), error: z.string() }),
  z.object({ id: z.string(), exit: z.number().int().nullable(), signal: z.number().int().nullable() }),
]);

const signalName = (n: number): NodeJS.Signals | null => (Object.entries(os.constants.signals).find(([, v]) => v === n)?.[0] as NodeJS.Signals | undefined) ?? null;

/** A chain the launcher started: 'exit' (code, signal) once it ended, 'close' once it ended and its pipes closed, 'error' if its end can no longer be known. */
class LaunchedChild extends EventEmitter implements ChainChild {
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  private open: number;
  private ended = false;
  private exitEmitted = false;
  private closeEmitted = false;
  /** Whether it keeps the worker alive until its end is reported (a node child process does). */
  refd = true;
  constructor(readonly pid: number, readonly stdio: (net.Socket | null)[], private readonly refChanged: () => void) {
    super();
    this.stdin = stdio[0] ?? null;
    this.stdout = stdio[1] ?? null;
    this.stderr = stdio[2] ?? null;
    const readers = stdio.filter((s, i): s is net.Socket => s !== null && i > 0 && s.readable);
    this.open = readers.length;
    for (const s of readers) s.once('close', () => this.oneClosed());
  }
  // Its end is emitted on a later turn of the event loop, as node emits a child's: the reply that
  // started it and the one that ended it can come in one read (a chain that fails at once), and
  // whoever awaited the start attaches its listeners only after that read was handled.
  exited(code: number | null, signal: number | null): void {
    this.ended = true;
    setImmediate(() => {
      this.emit('exit', code, signal === null ? null : signalName(signal));
      this.exitEmitted = true;
      this.maybeClose();
    });
  }
  lost(err: ChainLostError): void {
    if (this.ended) return;
    this.ended = true;
    setImmediate(() => this.emit('error', err));
  }
  private oneClosed(): void {
    this.open--;
    this.maybeClose();
  }
  /** 'close' once, after 'exit', when every pipe it writes is closed. */
  private maybeClose(): void {
    if (this.open > 0 || !this.exitEmitted || this.closeEmitted) return;
    this.closeEmitted = true;
    this.emit('close');
  }
  unref(): void {
    for (const s of this.stdio) s?.unref();
    this.refd = false;
    this.refChanged();
  }
  ref(): void {
    for (const s of this.stdio) s?.ref();
    this.refd = true;
    this.refChanged();
  }
}

interface Waiting {
  stdio: StdioKind[];
  started: (child: LaunchedChild | Error) => void;
  child?: LaunchedChild;
}

export class ChainLauncher {
  private proc: ChildProcess | null = null;
  private ready: Promise<number> | null = null;
  private dead: string | null = null;
  /** It said it was ready (then a death is a crash, and a new one may be started). */
  private ran = false;
  private restarts = 0;
  private next = 0;
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly python: string) {}

  /** Why chains are spawned by node instead, or null. */
  get unavailable(): string | null {
    return this.dead;
  }

  /** Start a chain; rejects when the launcher is unavailable (the caller spawns it itself) or the chain could not be started. */
  async spawn(argv: string[], env: Record<string, string>, cwd: string, stdio: StdioKind[]): Promise<ChainChild> {
    await this.start();
    const id = String(++this.next);
    const child = await new Promise<LaunchedChild | Error>((started) => {
      this.waiting.set(id, { stdio, started });
      this.holdWorker();
      this.proc!.stdin!.write(`${JSON.stringify({ id, argv, env, cwd, stdio })}\n`);
    });
    if (child instanceof Error) throw child;
    return child;
  }

  private start(): Promise<number> {
    if (this.dead) return Promise.reject(new Error(this.dead));
    this.ready ??= new Promise<number>((resolve, reject) => {
      // No site, no user environment: a few stdlib modules, a few MiB resident.
      const proc = spawn(this.python, ['-S', '-I', LAUNCHER_SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'], detached: true, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } });
      this.proc = proc;
      if (proc.pid) shareWorkerPriority(proc.pid);
      // Only this launcher's own end counts: a restarted one must not be ended by its predecessor's late 'exit'.
      const die = (why: string) => {
        if (this.proc === proc) this.die(why);
      };
      const timer = setTimeout(() => die(`the chain launcher did not start within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
      timer.unref();
      proc.once('error', (err) => die(`the chain launcher could not start: ${err.message}`));
      proc.once('exit', (code, sig) => die(`the chain launcher exited (${sig ?? code})`));
      proc.stdin!.on('error', () => undefined);
      this.onDeath = (why) => {
        clearTimeout(timer);
        reject(new Error(why));
      };
      createInterface({ input: proc.stdout! }).on('line', (line) => {
        let parsed: z.infer<typeof Reply>;
        try {
          parsed = Reply.parse(JSON.parse(line));
        } catch {
          return;
        }
        if ('ready' in parsed) {
          clearTimeout(timer);
          this.ran = true;
          // It does not keep the worker alive; a chain in flight does, through its own pipes.
          proc.unref();
          for (const s of [proc.stdin, proc.stdout]) (s as unknown as { unref?: () => void } | null)?.unref?.();
          resolve(parsed.pid);
          return;
        }
        this.answer(parsed, proc.pid!);
      });
    });
    return this.ready;
  }

  private onDeath: (why: string) => void = () => undefined;

  private answer(r: Exclude<z.infer<typeof Reply>, { ready: true }>, launcherPid: number): void {
    const w = this.waiting.get(r.id);
    if (!w) return;
    if ('error' in r) {
      this.waiting.delete(r.id);
      w.started(new Error(r.error));
    } else if ('fds' in r) {
      const stdio: (net.Socket | null)[] = [];
      try {
        for (const [i, kind] of w.stdio.entries()) stdio.push(kind === 'r' || kind === 'w' ? pipeEnd(launcherPid, r.fds[i]!, kind) : null);
      } catch (err) {
        for (const s of stdio) s?.destroy();
        this.waiting.delete(r.id);
        try {
          process.kill(-r.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
        w.started(new Error(`could not take the chain's pipes from the launcher: ${(err as Error).message}`));
        return;
      } finally {
        this.proc?.stdin?.write(`${JSON.stringify({ opened: r.id })}\n`);
      }
      w.child = new LaunchedChild(r.pid, stdio, () => this.holdWorker());
      w.started(w.child);
    } else {
      this.waiting.delete(r.id);
      w.child?.exited(r.exit, r.signal);
    }
    this.holdWorker();
  }

  /** Its replies keep the worker alive while a chain not unref'd waits for its end (or to start). */
  private holdWorker(): void {
    const out = this.proc?.stdout as unknown as { ref?: () => void; unref?: () => void } | null | undefined;
    if ([...this.waiting.values()].some((w) => !w.child || w.child.refd)) out?.ref?.();
    else out?.unref?.();
  }

  private die(why: string): void {
    if (this.dead) return;
    this.dead = why;
    this.onDeath(why);
    for (const [id, w] of this.waiting) {
      if (w.child) w.child.lost(new ChainLostError(`${why}: the chain's end could not be known`));
      else w.started(new Error(why));
      this.waiting.delete(id);
    }
    this.holdWorker();
    try {
      this.proc?.kill('SIGKILL');
    } catch {
      /* gone */
    }
    // One that ran and crashed (killed, OOM) is started anew on the next chain; one that never
    // started, or keeps dying, leaves the chains to node's spawn.
    if (this.ran && this.restarts < MAX_RESTARTS) {
      this.restarts++;
      this.ran = false;
      this.ready = null;
      this.proc = null;
      this.dead = null;
      this.onDeath = () => undefined;
    }
  }

  /** The launcher's pid once it runs (tests kill it). */
  get pid(): number | undefined {
    return this.proc?.pid;
  }
}

/** The worker's end of a chain's pipe, opened through the launcher's fd table. */
function pipeEnd(launcherPid: number, fd: number, kind: 'r' | 'w'): net.Socket {
  // The child reads 'r' pipes: the worker writes them.
  const flags = (kind === 'r' ? fsConstants.O_WRONLY : fsConstants.O_RDONLY) | fsConstants.O_NONBLOCK;
  const own = openSync(`/proc/${launcherPid}/fd/${fd}`, flags);
  return new net.Socket({ fd: own, readable: kind === 'w', writable: kind === 'r' });
}

let shared: ChainLauncher | null | undefined;

/** The worker's launcher, or null where chains are spawned by node (PHYSVEC_SANDBOX_LAUNCHER=0, or no python). */
export function chainLauncher(): ChainLauncher | null {
  if (shared !== undefined) return shared;
  const python = [venvPython, '/usr/bin/python3'].find((p) => existsSync(p));
  shared = process.env[LAUNCHER_ENV] === '0' || !python ? null : new ChainLauncher(python);
  return shared;
}
