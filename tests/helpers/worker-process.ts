// `physvec worker …` as a child process, the way an operator starts one: its stdout collected (the
// "polling" line, where metrics are served), stderr passed through, and a promise of its exit.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';

export interface WorkerProcess {
  proc: ChildProcess;
  exited: Promise<void>;
  /** Everything it printed on stdout so far. */
  output: () => string;
}

export function spawnWorker(args: string[], env: NodeJS.ProcessEnv = {}): WorkerProcess {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), 'worker', ...args], {
    env: { ...process.env, PHYSVEC_LOG_LEVEL: 'ERROR', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  return { proc, exited, output: () => out };
}
