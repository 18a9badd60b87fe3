// Sandbox start-up benchmark (not a test): the fixed cost of one sandboxed run, cold path vs warm
// path, against the same script's own work in an already-warm interpreter, measured side by side
// in one run (trials interleaved, medians), with the machine's load printed next to the numbers.
// Warm runs are measured twice: on the chain a worker keeps started and armed ahead (prestart.ts;
// each trial arrives at an idle worker, --gap-ms after the previous one, so that chain is ready as
// it is between a worker's runs) and on a chain the run starts itself (PHYSVEC_SANDBOX_PRESTART=0),
// the latter also with the kernel's normal RCU grace periods (what a worker on a host whose operator
// set PHYSVEC_SANDBOX_RCU_EXPEDITED=0 pays; runners/sandbox/rcu-expedite.ts), where this user may
// switch /sys/kernel/rcu_expedited (it is restored at the end).
// The script raises its own priority as a worker does (PHYSVEC_WORKER_NICE), and with --hog N runs
// beside N busy processes at the neighbours' priority, each in a session of its own (other users'
// jobs); the own chain is then measured twice more: at the worker's priority (what a worker does)
// and at the neighbours' (PHYSVEC_SANDBOX_CHAIN_PRIORITY=neighbours, as before).
// --grow-mb N makes this process N MiB bigger (touched, resident) before the trials: a `physvec
// worker` is 340-475 MiB resident, and a chain forked by the worker itself costs more the bigger it
// is (PHYSVEC_SANDBOX_LAUNCHER=0; scripts/bench-launcher.ts).
//   node --import tsx scripts/bench-sandbox.ts [--runs N] [--gap-ms 300] [--hog N] [--grow-mb N]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { ArtifactStore } from '../lib/artifacts/store.js';
import { venvPython } from '../lib/paths.js';
import { runSandboxed, warmUpSandbox } from '../runners/sandbox/index.js';
import { expediteRcuGracePeriods, RCU_EXPEDITED_FILE } from '../runners/sandbox/rcu-expedite.js';
import { answerHelp, median } from './bench-support.js';
import { startCpuHog } from './cpu-hog.js';
import { describePriority, raiseOwnPriority } from '../lib/process-priority.js';
import { CHAIN_PRIORITY_ENV } from '../runners/sandbox/chain.js';
import type { Phases } from '../runners/sandbox/phase-clock.js';

answerHelp(import.meta.url);

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;
const gapMs = args.includes('--gap-ms') ? Number(args[args.indexOf('--gap-ms') + 1]) : 300;
const hog = args.includes('--hog') ? Number(args[args.indexOf('--hog') + 1]) : 0;
const growMb = args.includes('--grow-mb') ? Number(args[args.indexOf('--grow-mb') + 1]) : 0;
const grown: Buffer[] = [];
for (let mb = 0; mb < growMb; mb += 16) grown.push(Buffer.alloc(16 * 2 ** 20, 1));
const priority = raiseOwnPriority();
process.env.PHYSVEC_STATE_DIR ??= mkdtempSync(path.join(tmpdir(), 'physvec-bench-sandbox-'));
const store = new ArtifactStore(path.join(process.env.PHYSVEC_STATE_DIR, 'artifacts'));

const SCRIPTS: Record<string, string> = {
  'print(1)': 'print(1)',
  'import tenpy; print(1)': 'import tenpy; print(1)',
  'numpy+pyplot savefig': 'import numpy as np, matplotlib.pyplot as plt\nplt.plot(np.arange(10)); plt.savefig("f.png")\nprint(1)',
};

const failures: string[] = [];
const ms = (x: number) => `${x.toFixed(0).padStart(6)} ms`;

/** The script's own work: exec'd repeatedly in one interpreter that has already run it once (imports done). */
function workInWarmInterpreter(code: string): number {
  const probe = `
import io, os, sys, time, tempfile
os.chdir(tempfile.mkdtemp())
code = compile(${JSON.stringify(code)}, 'main.py', 'exec')
real = sys.stdout
sys.stdout = io.StringIO(); exec(code, {'__name__': '__main__'})
times = []
for _ in range(${runs}):
    t = time.perf_counter(); exec(code, {'__name__': '__main__'}); times.append(time.perf_counter() - t)
sys.stdout = real
times.sort(); print(times[len(times) // 2] * 1000)
`;
  const out = execFileSync(venvPython, ['-c', probe], { env: { PATH: '/usr/bin:/bin', MPLBACKEND: 'Agg', OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' }, encoding: 'utf8' });
  return Number(out.trim());
}

type Start = 'cold' | 'warm' | 'warm, own chain' | 'own chain, normal RCU' | 'own chain, neighbours\' nice';

const rcuAtStart = (() => {
  try {
    return readFileSync(RCU_EXPEDITED_FILE, 'utf8').trim();
  } catch {
    return null;
  }
})();
const setRcu = (v: string) => {
  try {
    writeFileSync(RCU_EXPEDITED_FILE, v);
    return true;
  } catch {
    return false;
  }
};
// As a worker does at start; the 'normal RCU' trials switch it back for their run only.
const expedited = expediteRcuGracePeriods();
const rcuSwitchable = rcuAtStart !== null && setRcu(rcuAtStart === '0' && !expedited ? '0' : '1');
const starts: Start[] = [...(['cold', 'warm', 'warm, own chain'] as const), ...(rcuSwitchable ? (['own chain, normal RCU'] as const) : []), ...(priority?.raised ? (['own chain, neighbours\' nice'] as const) : [])];

/** Per start path, each trial's phases (runners/sandbox/phase-clock.ts), for print(1) only. */
const phaseTrials = new Map<Start, Phases[]>();

async function sandboxed(code: string, start: Start): Promise<{ wall: number; run: number; path: string }> {
  process.env.PHYSVEC_SANDBOX_WARM = start === 'cold' ? '0' : '1';
  process.env.PHYSVEC_SANDBOX_PRESTART = start === 'warm' ? '1' : '0';
  process.env[CHAIN_PRIORITY_ENV] = start === 'own chain, neighbours\' nice' ? 'neighbours' : 'worker';
  if (rcuSwitchable) setRcu(start === 'own chain, normal RCU' ? '0' : '1');
  await new Promise((r) => setTimeout(r, gapMs));
  const t = performance.now();
  const onPhases = code === SCRIPTS['print(1)'] ? (p: Phases) => phaseTrials.set(start, [...(phaseTrials.get(start) ?? []), p]) : undefined;
  const r = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: code }] }, { store, onPhases });
  const wall = performance.now() - t;
  if (r.exitCode !== 0) failures.push(`${code} (${start}): exit ${r.exitCode}: ${r.stderrTail.trim().split('\n').pop()}`);
  return { wall, run: r.durationMs, path: r.start?.path === 'warm' ? `warm ${r.start.chain}` : (r.start?.path ?? '?') };
}

// The zygote starts once per worker (at worker start); its start is reported, not counted per run.
process.env.PHYSVEC_SANDBOX_WARM = '1';
const stopHog = hog > 0 ? startCpuHog(hog, { sessions: true }) : async () => undefined;
if (hog > 0) await new Promise((r) => setTimeout(r, 20_000)); // let the load average rise
const zt = performance.now();
const warmUp = await warmUpSandbox();
if (!warmUp.ok) throw new Error(`no warm python: ${warmUp.reason}`);
console.log(`# this process ${describePriority(priority)}, ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB resident${grown.length ? ` (grown by ${growMb} MiB)` : ''}, chains started by ${process.env.PHYSVEC_SANDBOX_LAUNCHER === '0' ? 'node itself' : 'the launcher'}; ${hog > 0 ? `beside ${hog} busy processes (neighbours' priority, a session each)` : 'no busy processes started'}`);
console.log(`# warm python ready in ${((performance.now() - zt) / 1000).toFixed(1)} s (preloaded ${warmUp.loaded.join(', ')}); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}, ${runs} trials each, interleaved, medians`);
console.log('');
console.log('(b) fixed cost of one sandboxed run: wall of runSandboxed (work dir, uid, cgroup, chain, collection, cleanup) minus the script\'s own work');
console.log(`    warm = on the chain started and armed ahead of the run (trials ${gapMs} ms apart); warm, own chain = PHYSVEC_SANDBOX_PRESTART=0`);
console.log(`    kernel RCU: ${rcuAtStart === null ? 'no rcu_expedited knob' : `rcu_expedited was ${rcuAtStart}`}${expedited ? ' (set to 1, as a worker does)' : ''}; ${rcuSwitchable ? "'own chain, normal RCU' = the own chain with rcu_expedited 0 for its trials" : 'not switchable here: no normal-RCU column'}`);
console.log(`${'script'.padEnd(24)} | ${'own work'.padStart(9)} | ${'cold wall'.padStart(9)} | ${'warm wall'.padStart(9)} | ${'own chain'.padStart(9)} | ${'cold fixed'.padStart(10)} | ${'warm fixed'.padStart(10)} | ${'own chain fixed'.padStart(15)} | ${'normal RCU fixed'.padStart(16)} | ${'chain at neighbours fixed'.padStart(21)} | cold/warm | spawn→exit cold / warm / own chain`);
for (const [name, code] of Object.entries(SCRIPTS)) {
  const work = workInWarmInterpreter(code);
  const walls: Record<Start, number[]> = { cold: [], warm: [], 'warm, own chain': [], 'own chain, normal RCU': [], 'own chain, neighbours\' nice': [] };
  const spawned: Record<Start, number[]> = { cold: [], warm: [], 'warm, own chain': [], 'own chain, normal RCU': [], 'own chain, neighbours\' nice': [] };
  const paths = new Set<string>();
  for (let i = 0; i < runs; i++) {
    for (const start of starts) {
      const r = await sandboxed(code, start);
      walls[start].push(r.wall);
      spawned[start].push(r.run);
      if (start !== 'cold') paths.add(`${start}: ${r.path}`);
    }
  }
  const [cw, ww, ow] = [median(walls.cold), median(walls.warm), median(walls['warm, own chain'])];
  const off = [...paths].filter((p) => !['warm: warm pre-started', 'warm, own chain: warm per-run', 'own chain, normal RCU: warm per-run', 'own chain, neighbours\' nice: warm per-run'].includes(p));
  const normal = walls['own chain, normal RCU'].length ? ms(median(walls['own chain, normal RCU']) - work) : '-';
  const neighbours = walls['own chain, neighbours\' nice'].length ? ms(median(walls['own chain, neighbours\' nice']) - work) : '-';
  console.log(
    `${name.padEnd(24)} | ${ms(work)} | ${ms(cw)} | ${ms(ww)} | ${ms(ow)} | ${ms(cw - work).padStart(10)} | ${ms(ww - work).padStart(10)} | ${ms(ow - work).padStart(15)} | ${normal.padStart(16)} | ${neighbours.padStart(21)} | ${(cw / ww).toFixed(1).padStart(8)}× | ` +
      `${ms(median(spawned.cold))} / ${ms(median(spawned.warm))} / ${ms(median(spawned['warm, own chain']))}${off.length ? `  (not as intended: ${off.join(', ')})` : ''}`,
  );
}
// Where print(1)'s fixed cost went, per start path: the median of each phase over the trials.
console.log('');
console.log('(b\') print(1), median ms per phase (runners/sandbox/phase-clock.ts); phases in order of the first trial');
const phaseStarts = starts.filter((st) => st !== 'cold' && phaseTrials.has(st));
const phaseNames = [...new Set(phaseStarts.flatMap((st) => phaseTrials.get(st)!.flatMap((t) => t.map(([n]) => n))))];
console.log(`${'phase'.padEnd(62)} | ${phaseStarts.map((st) => st.padStart(14)).join(' | ')}`);
for (const name of [...phaseNames, 'total']) {
  const cells = phaseStarts.map((st) => {
    const per = phaseTrials.get(st)!.map((t) => (name === 'total' ? t.reduce((a, [, v]) => a + v, 0) : t.filter(([n]) => n === name).reduce((a, [, v]) => a + v, 0)));
    return per.some((v) => v > 0) ? `${median(per).toFixed(1).padStart(11)} ms` : '-'.padStart(14);
  });
  console.log(`${name.slice(0, 62).padEnd(62)} | ${cells.join(' | ')}`);
}
delete process.env.PHYSVEC_SANDBOX_PRESTART;
delete process.env[CHAIN_PRIORITY_ENV];
await stopHog();
if (rcuSwitchable && rcuAtStart !== null) setRcu(rcuAtStart);
for (const f of failures) console.log(`# FAILED trial: ${f}`);
console.log(`# load average after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log('# not measured here: (a) demo wall vs its physical limit, (c) serial vs concurrent campaign (see scripts/bench-campaign.ts)');
