// Builds the scripted-model cassette of the bundled demo (task_dmrg_tezuka_1a) from the demo's real
// files: the Author's faulty first script, the two repairs (as whole-function rewrites computed from
// the repaired scripts), the unit-test entry points, the assertion and convergence variant mains, and
// rubric judgements. Only the model's text is scripted; everything it is run against is real.
// Usage: node --import tsx scripts/make-demo-cassette.ts   (writes data/cassettes/task_dmrg_tezuka_1a.json)
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../lib/paths.js';
import { parseScript } from '../runners/structure/index.js';
import { loadTaskFile } from '../lib/tasks/load-task.js';
import { Cassette, type CassetteEntry } from '../schemas/llm.js';

const TASK = 'task_dmrg_tezuka_1a';
const ref = path.join(repoRoot, 'data', 'references', TASK);
const demo = path.join(ref, 'demo');
const read = (p: string) => readFileSync(p, 'utf8');

const v0 = read(path.join(demo, 'author_v0.py'));
const v1 = read(path.join(demo, 'after_programming_repair.py'));
const v2 = read(path.join(demo, 'final.py'));
const faults = JSON.parse(read(path.join(demo, 'faults.json'))) as { faults: { id: string; functions: string[]; stage: string; description: string }[] };

/** The functions that differ between two versions, as the whole new definitions a repair returns. */
function changedFunctions(before: string, after: string): { name: string; source: string }[] {
  const a = parseScript(before, 'python');
  const b = parseScript(after, 'python');
  const all = (s: typeof a) => [...s.elementFunctions, ...s.runFunctions, ...s.otherFunctions, ...(s.main ? [{ name: 'main', source: s.main.source }] : [])] as { name: string; source: string }[];
  const old = new Map(all(a).map((f) => [f.name, f.source]));
  return all(b).filter((f) => old.get(f.name) !== f.source).map((f) => ({ name: f.name, source: f.source }));
}

const entries: CassetteEntry[] = [];
const add = (e: Omit<CassetteEntry, 'text'> & { json: unknown }) => entries.push(e as CassetteEntry);

// ---- author ------------------------------------------------------------------------------------
add({
  role: 'author', stage: 'author', iteration: 0,
  json: {
    plan: [
      'Goal: Fig. 1a (right) of Tezuka & Ueda, PRL 100, 110403: ground-state spin densities of the balanced attractive Hubbard chain in a harmonic trap, scaled to L=12, N_up=N_down=3, U=-4, A=1.',
      '1. Sites: spin-1/2 fermions with N and Sz conserved (TeNPy SpinHalfFermionSite) on an open chain.',
      '2. Hamiltonian: hopping -t on every bond, U n_up n_down on site, trap V (i - i_c)^2 n_i with V = 4A/L^2.',
      '3. Initial state: a product state with the atoms near the trap centre fixes the particle numbers.',
      '4. DMRG ground state (chi_max 32, svd_min 1e-10), interacting (U=-4) and non-interacting (U=0).',
      '5. Observables: n_up(i), n_down(i); plot L/2 n against (i - i_c) 2/L.',
    ].join('\n'),
    queries: ['tenpy SpinHalfFermionSite conserve N Sz operators Nu Nd', 'tenpy CouplingMPOModel add_coupling hopping add_onsite', 'tenpy TwoSiteDMRGEngine chi_max svd_min max_sweeps'],
  },
});
add({
  role: 'author', stage: 'author', iteration: 0,
  rounds: [{ toolCalls: [
    { name: 'retrieve', args: { query: 'SpinHalfFermionSite conserve N Sz', toolchain: 'tenpy' } },
    { name: 'retrieve', args: { query: 'TwoSiteDMRGEngine chi_max svd_min max_sweeps', toolchain: 'tenpy' } },
  ] }],
  json: { summary: [
    { query: 'tenpy SpinHalfFermionSite conserve N Sz', answer: 'SpinHalfFermionSite(cons_N="N", cons_Sz="Sz") conserves both particle numbers; its on-site operators include Cdu, Cu, Cdd, Cd, Nu, Nd, Ntot.' },
    { query: 'tenpy TwoSiteDMRGEngine', answer: 'dmrg.run(psi, model, {"trunc_params": {"chi_max": .., "svd_min": ..}, "max_sweeps": ..}) returns a dict with E; psi is updated in place.' },
  ] },
});
add({ role: 'coder', stage: 'author', iteration: 0, json: { script: v0, notes: 'Element-function script for the scaled system (L=12, 3+3 atoms).' } });

// ---- programming verifier ------------------------------------------------------------------------
const unitDir = path.join(demo, 'unit');
const unitEntries = readdirSync(unitDir)
  .filter((f) => f.endsWith('.entry.py'))
  .map((f) => ({ function: f.replace(/\.entry\.py$/, ''), main: read(path.join(unitDir, f)) }));
add({ role: 'unit-test-writer', stage: 'programming', iteration: '*', json: { entries: unitEntries } });
const programmingFaults = faults.faults.filter((f) => f.stage === 'programming');
add({
  role: 'repairer', stage: 'programming', iteration: 1,
  json: { suggestions: programmingFaults.map((f) => `${f.functions.join(' / ')}: ${f.description}`), functions: changedFunctions(v0, v1) },
});

// ---- scientific verifier -----------------------------------------------------------------------
const task = await loadTaskFile(path.join(repoRoot, 'data', 'tasks', 'dmrg', `${TASK}.json`));
const leaves = task.rubric.leaves ?? [];
const physicsFault = faults.faults.find((f) => f.stage === 'scientific')!;
const judges = (iteration: number) => leaves.map((l) => {
  const hit = iteration === 1 && /trap/i.test(l.issue) && /i_c|centre|center/i.test(l.issue);
  return { index: l.index, judge: hit ? 0 : 1, support: hit ? `hamiltonian_trapped_hubbard uses i_c = L/2; for sites 0..L-1 the centre is (L-1)/2` : 'satisfied by the code' };
});
for (const it of [1, 2]) {
  for (let k = 0; k < 2; k++) {
    add({ role: 'rubric-grader', stage: 'scientific', iteration: it, json: { judges: judges(it) } });
    add({ role: 'rubric-consistency', stage: 'scientific', iteration: it, json: { judges: judges(it) } });
  }
}
const variantMains: { case: string; main: string }[] = [];
for (const kind of ['limiting', 'scientific']) {
  const dir = path.join(ref, kind);
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.main.py')).sort((a, b) => parseInt(a) - parseInt(b))) {
    variantMains.push({ case: `${kind}:${parseInt(f)}`, main: read(path.join(dir, f)) });
  }
}
add({ role: 'assertion-writer', stage: 'scientific', iteration: '*', json: { variants: variantMains } });
add({
  role: 'repairer', stage: 'scientific', iteration: 1,
  json: { suggestions: [`${physicsFault.functions.join(' / ')}: ${physicsFault.description}`], functions: changedFunctions(v1, v2) },
});

// ---- convergence -------------------------------------------------------------------------------
const schedule = JSON.parse(read(path.join(ref, 'convergence', '0.schedule.json'))) as { start: number; factor?: number; step?: number; max: number };
add({
  role: 'convergence-writer', stage: 'convergence', iteration: 1,
  json: { main: read(path.join(ref, 'convergence', '0.main.py')), schedule: { start: schedule.start, factor: schedule.factor, step: schedule.step, max: schedule.max } },
});

const cassette = Cassette.parse({
  name: TASK,
  description: 'Scripted model of the bundled demo: the Author writes a script with (a) a wrong TeNPy call, (b) an interface mismatch, (c) a shifted trap centre; the verifiers find and repair each. Generated by scripts/make-demo-cassette.ts from data/references/task_dmrg_tezuka_1a/demo.',
  entries,
});
const out = path.join(repoRoot, 'data', 'cassettes', `${TASK}.json`);
writeFileSync(out, JSON.stringify(cassette, null, 2) + '\n');
console.log(`wrote ${out} (${entries.length} entries)`);
