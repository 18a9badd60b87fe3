// A CPU hog for benchmark scripts: `n` busy child processes (spin loops), stopped by the returned
// function and on any exit of the script, so a benchmark can measure under load it controls.
// `sessions`: each hog in a session of its own, at the priority the script was started with — the
// neighbours of a shared host (other users' jobs, each its own session: with autogroup on, the kernel
// shares the CPU between sessions first), not children of the script's own session.
import { spawn } from 'node:child_process';
import { onAnyExit } from './bench-support.js';
import { atNeighbourPriority } from '../lib/process-priority.js';

export function startCpuHog(n: number, opts: { sessions?: boolean } = {}): () => Promise<void> {
  const argv = opts.sessions ? atNeighbourPriority([process.execPath, '-e', 'for (;;) {}']) : [process.execPath, '-e', 'for (;;) {}'];
  const children = Array.from({ length: n }, () => spawn(argv[0]!, argv.slice(1), { stdio: 'ignore', detached: opts.sessions === true }));
  return onAnyExit(async () => {
    for (const c of children) c.kill('SIGKILL');
  });
}
