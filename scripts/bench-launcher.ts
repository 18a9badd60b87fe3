// Chain-start benchmark (not a test): what starting a sandbox chain costs the worker when node forks it
// (child_process.spawn: libuv forks the whole worker, copying its page tables) and when the chain
// launcher does (runners/sandbox/launcher.ts: a small process forks it), side by side in one run,
// trials interleaved, medians, at this process's own size and after it grew to a worker's size. The
// command is `/bin/true` with the chain's pipes, so what is measured is the start and the exit
// report, not a chain's own work.
//   node --import tsx scripts/bench-launcher.ts [--trials 41] [--grow-mb 200,400]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { answerHelp, median } from './bench-support.js';
import { chainLauncher } from '../runners/sandbox/launcher.js';

answerHelp(import.meta.url);
const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1]! : dflt);
const TRIALS = Number(opt('--trials', '41'));
const GROW = opt('--grow-mb', '200,400').split(',').map(Number);

const launcher = chainLauncher();
if (!launcher) throw new Error('the chain launcher is off (PHYSVEC_SANDBOX_LAUNCHER=0) or there is no python');
const now = () => performance.now();
const ENV = { PATH: '/usr/bin:/bin' };

async function byNode(): Promise<[number, number]> {
  const t = now();
  const c = spawn('/bin/true', [], { env: ENV, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  await once(c, 'spawn');
  const started = now() - t;
  await once(c, 'close');
  return [started, now() - t];
}

async function byLauncher(): Promise<[number, number]> {
  const t = now();
  const c = await launcher!.spawn(['/bin/true'], ENV, '/', ['null', 'w', 'w']);
  const started = now() - t;
  await once(c, 'close');
  return [started, now() - t];
}

const kept: Buffer[] = [];
const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
await byLauncher(); // the launcher's own start, once per worker
console.log(`# ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ${TRIALS} trials each, interleaved, medians`);
console.log('worker resident | node spawn: started / ended | launcher: started / ended | ratio (ended)');
for (const grow of [0, ...GROW]) {
  // Touched, so it is resident (as a worker's heap, its workflow bundle and the SDK's core are).
  while (kept.length * 16 < grow) kept.push(Buffer.alloc(16 * 2 ** 20, 1));
  const node: [number, number][] = [];
  const ours: [number, number][] = [];
  for (let i = 0; i < TRIALS; i++) {
    node.push(await byNode());
    ours.push(await byLauncher());
  }
  const n = [median(node.map((x) => x[0])), median(node.map((x) => x[1]))];
  const l = [median(ours.map((x) => x[0])), median(ours.map((x) => x[1]))];
  console.log(`${String(rssMb()).padStart(6)} MiB      | ${n[0]!.toFixed(2).padStart(6)} / ${n[1]!.toFixed(2).padStart(6)} ms          | ${l[0]!.toFixed(2).padStart(6)} / ${l[1]!.toFixed(2).padStart(6)} ms        | ${(n[1]! / l[1]!).toFixed(1)}×`);
}
console.log(`# load average after: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
process.exit(0);
