// Runs the real `physvec` command (node --import tsx cli/main.ts) as a user would, several at a time,
// and captures exit code, stdout, stderr and wall time.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Provider keys never reach the CLI under test: the scripted-model fallback is what a new user without keys gets. */
const KEY_VARS = /(_API_KEY|_BASE_URL)$/;

export function runCli(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 90_000): Promise<CliRun> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !KEY_VARS.test(k) || k === 'TEMPORAL_API_KEY'));
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli', 'main.ts'), ...args], {
      cwd: repoRoot,
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** `fn` over `items`, at most `limit` at a time, results in order. */
export async function mapParallel<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** Lines that only a stack trace prints. */
export function stackTraceLines(text: string): string[] {
  return text.split('\n').filter((l) => /^\s+at\s.+(\(|:\d+)/.test(l) || /^\s*(\w*Error|Error \[\w+\]):\s/.test(l) || /node:internal|triggerUncaughtException/.test(l));
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * The same command line run in this process (cli/program.ts), one at a time: stdout and stderr are
 * captured, the environment is set for the call and restored after it. Much cheaper than a process
 * per case; the process-level handlers of cli/main.ts are covered by the spawned cases.
 */
export function runInProcess(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const run = queue.then(async () => {
    const { runPhysvec } = await import('../../cli/program.js');
    const saved = new Map<string, string | undefined>();
    const set = (k: string, v: string | undefined) => {
      if (!saved.has(k)) saved.set(k, process.env[k]);
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    };
    for (const k of Object.keys(process.env)) if (KEY_VARS.test(k) && k !== 'TEMPORAL_API_KEY') set(k, undefined);
    for (const [k, v] of Object.entries(env)) set(k, v);
    let stdout = '';
    let stderr = '';
    const out = process.stdout.write;
    const err = process.stderr.write;
    process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += String(chunk)), true)) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
    const t0 = Date.now();
    try {
      const code = await runPhysvec(args);
      return { code, stdout, stderr, ms: Date.now() - t0 };
    } finally {
      process.stdout.write = out;
      process.stderr.write = err;
      for (const [k, v] of saved) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
  queue = run.catch(() => {});
  return run;
}
