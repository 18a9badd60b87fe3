// Warm sandboxes sized to the work (issue 24 item 5; not a test): prints, with the load,
//   (1) per toolchain (tenpy, qiskit, pyscf, netket): the same small CPU-bound script run cold and
//       warm, interleaved, its own computation timed inside the script after its imports (median
//       of the repeats, wall and CPU time; target: warm within 5 % of cold), and its imports in the run;
//   (2) the fixed cost of one sandboxed `print(1)` on a pre-started chain and on a chain of its own
//       (PHYSVEC_SANDBOX_PRESTART=0), medians (target ≤ 60 ms each at load ≤ 5);
//   (3) bursts of 1, 2 and 4 concurrent runs: the start path each took and its wall time;
//   (4) why netket itself is not preloaded: the threads `import netket` leaves (a fork needs 1).
// The worker's pool is sized like a worker with --slots sandbox slots (default 4, so a burst of 4 is ≤ slots).
// Usage: node --import tsx scripts/bench-warm-pool.ts [--repeats 5] [--runs 7] [--slots 4] [--toolchains tenpy,qiskit,pyscf,netket]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ArtifactStore } from '../lib/artifacts/store.js';
import { venvPython } from '../lib/paths.js';
import { runSandboxed, warmUpSandbox } from '../runners/sandbox/index.js';
import { WARM_PROFILES, type WarmProfile } from '../runners/sandbox/zygote.js';
import type { SandboxResult } from '../schemas/sandbox.js';
import { answerHelp, median } from './bench-support.js';

answerHelp(import.meta.url);

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : dflt);
const repeats = Number(opt('--repeats', '5'));
const runs = Number(opt('--runs', '7'));
const slots = Number(opt('--slots', '4'));
const toolchains = opt('--toolchains', 'tenpy,qiskit,pyscf,netket').split(',') as WarmProfile[];
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
process.env.PHYSVEC_STATE_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'physvec-bench-warm-pool-'));
const store = new ArtifactStore(path.join(process.env.PHYSVEC_STATE_DIR, 'artifacts'));
// Warm runs wait for their warm python rather than go cold while it imports (this measures warm runs).
process.env.PHYSVEC_SANDBOX_WARM_WAIT_MS = '600000';

/** Each toolchain's work: small, CPU-bound, deterministic; single-threaded as the sandbox sets it. */
const WORK: Record<WarmProfile, { imports: string; compute: string }> = {
  tenpy: {
    imports: 'from tenpy.models.tf_ising import TFIChain\nfrom tenpy.networks.mps import MPS\nfrom tenpy.algorithms import dmrg',
    compute: `M = TFIChain({'L': 16, 'J': 1.0, 'g': 1.0, 'bc_MPS': 'finite'})
psi = MPS.from_product_state(M.lat.mps_sites(), ['up'] * 16, bc='finite')
dmrg.run(psi, M, {'trunc_params': {'chi_max': 32, 'svd_min': 1e-10}, 'max_sweeps': 4, 'min_sweeps': 4, 'mixer': None})`,
  },
  qiskit: {
    imports: 'from qiskit import transpile\nfrom qiskit.circuit.random import random_circuit\nfrom qiskit_aer import AerSimulator',
    compute: `qc = random_circuit(16, 30, measure=True, seed=1)
sim = AerSimulator(method='statevector')
tqc = transpile(qc, sim, seed_transpiler=1)
for _ in range(3):
    sim.run(tqc, shots=2000, seed_simulator=1).result()`,
  },
  pyscf: {
    imports: 'from pyscf import gto, scf, dft',
    compute: `mol = gto.M(atom='O 0 0 0; H 0 0.757 0.587; H 0 -0.757 0.587', basis='cc-pvdz', verbose=0)
scf.RHF(mol).run()
dft.RKS(mol, xc='b3lyp').run()`,
  },
  netket: {
    imports: 'import netket as nk',
    compute: `hi = nk.hilbert.Spin(s=0.5, N=8)
H = nk.operator.Ising(hi, nk.graph.Chain(8), h=1.0)
vs = nk.vqs.MCState(nk.sampler.MetropolisLocal(hi, n_chains=16), nk.models.RBM(alpha=1), n_samples=512, seed=1, sampler_seed=1)
nk.VMC(H, nk.optimizer.Sgd(0.05), variational_state=vs).run(n_iter=20, out=None, show_progress=False)`,
  },
};

const script = (w: { imports: string; compute: string }) => `import time, json
t0 = time.perf_counter()
${w.imports}
t1 = time.perf_counter(); c1 = time.process_time()
${w.compute}
t2 = time.perf_counter(); c2 = time.process_time()
print(json.dumps({'importS': t1 - t0, 'computeS': t2 - t1, 'cpuS': c2 - c1}))`;

async function sandboxed(code: string, warm: boolean, prestart = true): Promise<{ r: SandboxResult; wallMs: number }> {
  process.env.PHYSVEC_SANDBOX_WARM = warm ? '1' : '0';
  process.env.PHYSVEC_SANDBOX_PRESTART = prestart ? '1' : '0';
  const t = performance.now();
  const r = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: code }], timeoutMs: 600_000 }, { store });
  const wallMs = performance.now() - t;
  if (r.exitCode !== 0) throw new Error(`a ${warm ? 'warm' : 'cold'} run failed (exit ${r.exitCode}): ${r.stderrTail.trim().split('\n').slice(-3).join(' | ')}`);
  return { r, wallMs };
}

const startOf = (r: SandboxResult) => (r.start?.path === 'warm' ? r.start.chain ?? 'warm' : `cold (${r.start?.reason})`);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f = (x: number, d = 3) => x.toFixed(d);

async function ownComputation(): Promise<void> {
  console.log(`(1) a warm run's own computation vs the same script cold (${repeats} repeats each, interleaved, medians; load ${load()})`);
  console.log(`${'toolchain'.padEnd(10)} | ${'cold compute'.padStart(12)} | ${'warm compute'.padStart(12)} | warm/cold | ${'cold CPU'.padStart(8)} | ${'warm CPU'.padStart(8)} | warm/cold CPU | imports in the run cold / warm | warm start`);
  for (const tc of toolchains) {
    const code = script(WORK[tc]);
    const got: Record<'cold' | 'warm', Array<{ importS: number; computeS: number; cpuS: number }>> = { cold: [], warm: [] };
    const paths = new Set<string>();
    for (let i = 0; i < repeats; i++) {
      for (const warm of [false, true]) {
        await pause(300);
        const { r } = await sandboxed(code, warm);
        got[warm ? 'warm' : 'cold'].push(JSON.parse(r.stdoutTail.trim().split('\n').pop()!) as { importS: number; computeS: number; cpuS: number });
        if (warm) paths.add(startOf(r));
      }
    }
    const m = (k: 'cold' | 'warm', key: 'importS' | 'computeS' | 'cpuS') => median(got[k].map((x) => x[key]));
    console.log(`${tc.padEnd(10)} | ${f(m('cold', 'computeS')).padStart(10)} s | ${f(m('warm', 'computeS')).padStart(10)} s | ${f(m('warm', 'computeS') / m('cold', 'computeS'), 3).padStart(9)} | ${f(m('cold', 'cpuS')).padStart(6)} s | ${f(m('warm', 'cpuS')).padStart(6)} s | ${f(m('warm', 'cpuS') / m('cold', 'cpuS')).padStart(13)} | ${f(m('cold', 'importS'), 2)} s / ${f(m('warm', 'importS'), 2)} s | ${[...paths].join(', ')}`);
  }
  console.log(`# load after (1): ${load()}`);
}

async function fixedCost(): Promise<void> {
  console.log('');
  console.log(`(2) fixed cost of a sandboxed print(1) (wall of runSandboxed; its own work is nil), ${runs} trials each, interleaved, medians (load ${load()})`);
  const walls: Record<string, number[]> = { 'pre-started': [], 'own chain': [] };
  const paths: Record<string, Set<string>> = { 'pre-started': new Set(), 'own chain': new Set() };
  for (let i = 0; i < runs; i++) {
    for (const [name, prestart] of [['pre-started', true], ['own chain', false]] as const) {
      await pause(300);
      const { r, wallMs } = await sandboxed('print(1)', true, prestart);
      walls[name]!.push(wallMs);
      paths[name]!.add(startOf(r));
    }
  }
  for (const name of Object.keys(walls)) console.log(`  ${name.padEnd(12)} ${median(walls[name]!).toFixed(0).padStart(4)} ms  (min ${Math.min(...walls[name]!).toFixed(0)}, max ${Math.max(...walls[name]!).toFixed(0)}; path taken: ${[...paths[name]!].join(', ')})`);
  console.log(`# load after (2): ${load()}`);
}

async function bursts(): Promise<void> {
  console.log('');
  console.log(`(3) bursts of concurrent print(1) runs (pool of ${slots} per toolchain, as a worker with ${slots} sandbox slots)`);
  for (const n of [1, 2, 4]) {
    await pause(2_000); // the pool refilled after the previous burst
    const l = load();
    const t = performance.now();
    const done = await Promise.all(Array.from({ length: n }, () => sandboxed('print(1)', true).then(({ r }) => ({ r, ms: performance.now() - t }))));
    const pre = done.filter((d) => startOf(d.r) === 'pre-started').length;
    console.log(`  burst of ${n}: ${pre}/${n} on pre-started chains; per run (start path, wall from the burst's start): ${done.map((d) => `${startOf(d.r)} ${d.ms.toFixed(0)} ms`).join(', ')}  [load ${l}]`);
  }
}

function netketNote(): void {
  console.log('');
  const threads = execFileSync(venvPython, ['-c', "import os, netket; print(len(os.listdir('/proc/self/task')))"], { env: { PATH: '/usr/bin:/bin', JAX_PLATFORMS: 'cpu', OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' }, encoding: 'utf8' }).trim();
  console.log(`(4) netket: \`import netket\` leaves ${threads} threads (the JAX CPU backend starts at import); the zygote forks only with 1, so it preloads ${WARM_PROFILES.netket.filter((m) => !(WARM_PROFILES.tenpy as readonly string[]).includes(m)).join(', ')} and the run imports netket itself (its cost: the "imports in the run, warm" column above)`);
}

console.log(`# bench-warm-pool: ${os.cpus().length} cores, load average ${load()}`);
const rcu = (() => {
  try {
    return readFileSync('/sys/kernel/rcu_expedited', 'utf8').trim();
  } catch {
    return 'absent';
  }
})();
for (const tc of ['tenpy', ...toolchains.filter((t) => t !== 'tenpy')] as WarmProfile[]) {
  const t = performance.now();
  const w = await warmUpSandbox(tc, { poolSize: slots });
  if (!w.ok) throw new Error(`no warm python for ${tc}: ${w.reason}`);
  console.log(`# warm python for ${tc} ready in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
console.log(`# kernel rcu_expedited ${rcu} before the warm-up, ${(() => { try { return readFileSync('/sys/kernel/rcu_expedited', 'utf8').trim(); } catch { return 'absent'; } })()} after (runners/sandbox/rcu-expedite.ts)`);
await ownComputation();
await fixedCost();
await bursts();
netketNote();
console.log(`# load average after: ${load()}`);
process.exit(0);
