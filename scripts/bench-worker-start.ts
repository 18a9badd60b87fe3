// bench-worker-start: `physvec worker` from start to polling (issue 24.4; target ≤ 15 s at idle), with an
// empty bundle cache (the first start after a code change builds the workflow bundle) and with the
// cache filled, at idle and under a CPU hog this script starts and stops itself.
//
//   node --import tsx scripts/bench-worker-start.ts [--hog 8] [--port 17361]
//
// Each start: a new process, a new state dir and queues of its own, against a throw-away dev server;
// the time is until the worker prints that it polls. Prints the load average with each figure.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../lib/paths.js';
import { answerHelp, benchServer } from './bench-support.js';
import { startCpuHog } from './cpu-hog.js';

answerHelp(import.meta.url);
const flag = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const hog = flag('--hog', 8);
const port = flag('--port', 17361);

/** Start `physvec worker`, resolve with the ms until it says it polls (and the lines it printed before), then stop it. */
function startToPoll(env: NodeJS.ProcessEnv): Promise<{ ms: number; said: string[] }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin/physvec.js'), 'worker'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let ms: number | undefined;
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (ms === undefined && /polling/.test(out)) {
        ms = performance.now() - t0;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (d) => (out += d));
    child.once('close', (code) => (ms === undefined ? reject(new Error(`worker exited ${code} before polling: ${out}`)) : resolve({ ms, said: out.trim().split('\n') })));
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-bench-worker-'));
  const { info, stop } = await benchServer({ dir, port, uiPort: port + 1000 });
  const cache = path.join(dir, 'bundle-cache');
  const env = (n: number) => ({ ...process.env, TEMPORAL_ADDRESS: info.address, PHYSVEC_STATE_DIR: path.join(dir, `state-${n}`), PHYSVEC_CACHE_DIR: cache, PHYSVEC_QUEUE_PREFIX: `bw-${randomUUID().slice(0, 8)}`, PHYSVEC_WORKFLOW_BUNDLE: '' });
  let n = 0;
  const measure = async (label: string) => {
    const r = await startToPoll(env(n++));
    console.log(`${label.padEnd(44)} ${(r.ms / 1000).toFixed(1)} s   load ${os.loadavg()[0]!.toFixed(1)}   ${r.said.length > 1 ? `(said first: ${r.said[0]})` : ''}`);
  };
  console.log(`physvec worker, start to polling, on ${os.availableParallelism()} cores`);
  await measure('idle, empty bundle cache (builds the bundle)');
  await measure('idle, bundle cached');
  await measure('idle, bundle cached, again');
  if (hog > 0) {
    const stopHog = startCpuHog(hog);
    await new Promise((r) => setTimeout(r, 3000));
    await measure(`hog of ${hog}, bundle cached`);
    await stopHog();
  }
  await stop();
}

await main();
