// A CPU hog for benchmark scripts: `n` busy child processes (spin loops), stopped by the returned
// function and on any exit of the script, so a benchmark can measure under load it controls.
import { spawn } from 'node:child_process';
import { onAnyExit } from './bench-support.js';

export function startCpuHog(n: number): () => Promise<void> {
  const children = Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return onAnyExit(async () => {
    for (const c of children) c.kill('SIGKILL');
  });
}
