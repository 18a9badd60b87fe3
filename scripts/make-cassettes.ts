// Builds the scripted-model cassettes of the bundled runs from real files: the Author's script, the
// repairs (whole-function rewrites computed from the repaired scripts), the unit-test entry points,
// the assertion and convergence variant mains, and rubric judgements. Only the model's text is
// scripted; everything it is run against is real.
//   node --import tsx scripts/make-cassettes.ts   → data/cassettes/task_dmrg_tezuka_1a.json, task_dmrg_7_2.json
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, qmpBenchRoot } from '../lib/paths.js';
import { parseScript } from '../lib/script-analysis/index.js';
import { loadTaskFile } from '../lib/tasks/load-task.js';
import { Cassette, type CassetteEntry } from '../schemas/llm.js';
import type { WorkflowCallKey } from '../schemas/agent-roles.js';
import { applyEdits } from '../lib/tasks/source-edits.js';
import type { SourceEdit } from '../schemas/validation.js';

const refs = path.join(repoRoot, 'data', 'references');
const demo = path.join(refs, 'task_dmrg_tezuka_1a', 'demo');
const read = (p: string) => readFileSync(p, 'utf8');
type Fault = { id: string; functions: string[]; stage: string; description: string; edits: SourceEdit[] };
const faultsFile = path.join(demo, 'faults.json');
const faults = (JSON.parse(read(faultsFile)) as { faults: Fault[] }).faults;
const solutionFile = path.join(refs, 'task_dmrg_tezuka_1a', 'solution.py');
/** The demo's Author scripts: the solution with the given faults put in by their edits. */
const withFaults = (which: Fault[]) =>
  which.reduce((src, f) => applyEdits(src, f.edits, { file: faultsFile, field: `faults.${faults.indexOf(f)}.edits` }, solutionFile), read(solutionFile));

/** The functions that differ between two versions, as the whole new definitions a repair returns. */
function changedFunctions(before: string, after: string): { name: string; source: string }[] {
  const all = (src: string) => {
    const s = parseScript(src, 'python');
    return [...s.elementFunctions, ...s.runFunctions, ...s.otherFunctions, ...(s.main ? [{ name: 'main', source: s.main.source }] : [])] as { name: string; source: string }[];
  };
  const old = new Map(all(before).map((f) => [f.name, f.source]));
  return all(after).filter((f) => old.get(f.name) !== f.source).map((f) => ({ name: f.name, source: f.source }));
}

function variantMains(dir: string): { case: string; main: string }[] {
  const out: { case: string; main: string }[] = [];
  for (const kind of ['limiting', 'scientific']) {
    const d = path.join(dir, kind);
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d).filter((x) => x.endsWith('.main.py')).sort((a, b) => parseInt(a) - parseInt(b))) out.push({ case: `${kind}:${parseInt(f)}`, main: read(path.join(d, f)) });
  }
  return out;
}

interface Spec {
  taskId: string;
  taskFile: string;
  description: string;
  /** Scripts in order: the Author's, then after each repair. */
  authorScript: string;
  programmingRepair?: { after: string; suggestions: string[] };
  scientificRepair: { before: string; after: string; suggestions: string[] };
  variantsDir: string;
  /** Rubric leaves the grader fails in scientific iteration 1 (the physics fault). */
  faultyLeaf: (issue: string) => boolean;
  faultSupport: string;
}

async function build(spec: Spec): Promise<void> {
  const entries: CassetteEntry[] = [];
  // Keyed by the workflows' own role and stage names (schemas/agent-roles.ts): a misspelt key fails to compile.
  const add = (e: Omit<CassetteEntry, 'text' | 'role' | 'stage'> & WorkflowCallKey & { json: unknown }) => entries.push(e as CassetteEntry);
  add({
    role: 'author', stage: 'author', iteration: 0,
    json: {
      plan: [
        'Goal: the density profiles of the balanced attractive Hubbard chain in a harmonic trap (Tezuka & Ueda, PRL 100, 110403, Fig. 1a right), scaled to L=12, N_up=N_down=3, U=-4, A=1.',
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
  add({ role: 'coder', stage: 'author', iteration: 0, json: { script: spec.authorScript, notes: 'Element-function script for the scaled system (L=12, 3+3 atoms).' } });

  const unitDir = path.join(demo, 'unit');
  const unitEntries = readdirSync(unitDir).filter((f) => f.endsWith('.entry.py')).map((f) => ({ function: f.replace(/\.entry\.py$/, ''), main: read(path.join(unitDir, f)) }));
  add({ role: 'unit-test-writer', stage: 'programming', iteration: '*', json: { entries: unitEntries } });
  if (spec.programmingRepair) {
    add({ role: 'repairer', stage: 'programming', iteration: 1, json: { suggestions: spec.programmingRepair.suggestions, functions: changedFunctions(spec.authorScript, spec.programmingRepair.after) } });
  }

  const task = await loadTaskFile(spec.taskFile);
  const leaves = task.rubric.leaves ?? [];
  const judges = (iteration: number) => leaves.map((l) => {
    const hit = iteration === 1 && spec.faultyLeaf(l.issue);
    return { index: l.index, judge: hit ? 0 : 1, support: hit ? spec.faultSupport : 'satisfied by the code' };
  });
  for (const it of [1, 2]) {
    for (let k = 0; k < 2; k++) {
      add({ role: 'rubric-grader', stage: 'scientific', iteration: it, json: { judges: judges(it) } });
      add({ role: 'rubric-consistency', stage: 'scientific', iteration: it, json: { judges: judges(it) } });
    }
  }
  add({ role: 'assertion-writer', stage: 'scientific', iteration: '*', json: { variants: variantMains(spec.variantsDir) } });
  add({ role: 'repairer', stage: 'scientific', iteration: 1, json: { suggestions: spec.scientificRepair.suggestions, functions: changedFunctions(spec.scientificRepair.before, spec.scientificRepair.after) } });

  const conv = path.join(refs, 'task_dmrg_tezuka_1a', 'convergence');
  const schedule = JSON.parse(read(path.join(conv, '0.schedule.json'))) as { start: number; factor?: number; step?: number; max: number; monitor?: string };
  // `monitor`: the script's own result line the converged value is compared with (its own setting).
  add({ role: 'convergence-writer', stage: 'convergence', iteration: 1, json: { main: read(path.join(conv, '0.main.py')), schedule: { start: schedule.start, factor: schedule.factor, step: schedule.step, max: schedule.max }, ...(schedule.monitor ? { monitor: schedule.monitor } : {}) } });

  const cassette = Cassette.parse({ name: spec.taskId, description: spec.description, entries });
  const out = path.join(repoRoot, 'data', 'cassettes', `${spec.taskId}.json`);
  writeFileSync(out, JSON.stringify(cassette, null, 2) + '\n');
  console.log(`wrote ${out} (${entries.length} entries)`);
}

const v0 = withFaults(faults);
const v1 = withFaults(faults.filter((f) => f.stage === 'scientific'));
const v2 = withFaults([]);
const physics = faults.find((f) => f.stage === 'scientific')!;
const trapCentreLeaf = (issue: string) => /trap/i.test(issue) && /i_c|centre|center/i.test(issue);
const support = 'hamiltonian_trapped_hubbard uses i_c = L/2; for sites 0..L-1 the centre is (L-1)/2';

await build({
  taskId: 'task_dmrg_tezuka_1a',
  taskFile: path.join(repoRoot, 'data', 'tasks', 'dmrg', 'task_dmrg_tezuka_1a.json'),
  description: 'Scripted model of the bundled demo: the Author writes a script with (a) a wrong TeNPy call, (b) an interface mismatch, (c) a shifted trap centre; the verifiers find and repair each. Generated by scripts/make-cassettes.ts from data/references/task_dmrg_tezuka_1a/demo.',
  authorScript: v0,
  programmingRepair: { after: v1, suggestions: faults.filter((f) => f.stage === 'programming').map((f) => `${f.functions.join(' / ')}: ${f.description}`) },
  scientificRepair: { before: v1, after: v2, suggestions: [`${physics.functions.join(' / ')}: ${physics.description}`] },
  variantsDir: path.join(refs, 'task_dmrg_tezuka_1a'),
  faultyLeaf: trapCentreLeaf,
  faultSupport: support,
});

await build({
  taskId: 'task_dmrg_7_2',
  taskFile: path.join(qmpBenchRoot, 'dmrg', 'tasks', 'task_dmrg_7_2.json'),
  description: "Scripted model for QMP-Bench's task_dmrg_7_2 run with --toolchain tenpy: the Author's TeNPy script carries a shifted trap centre that the assertions catch and the scientific repair fixes. Generated by scripts/make-cassettes.ts.",
  authorScript: v1,
  scientificRepair: { before: v1, after: v2, suggestions: [`${physics.functions.join(' / ')}: ${physics.description}`] },
  variantsDir: path.join(refs, 'task_dmrg_7_2'),
  faultyLeaf: trapCentreLeaf,
  faultSupport: support,
});

// The pipeline smoke task (a numpy dimer): the shortest full reproduction, used by the human-in-the-loop
// and real-provider tests. Hand-written answers; the script is data/smoke/heisenberg_two_site.py.
{
  const script = read(path.join(repoRoot, 'data', 'smoke', 'heisenberg_two_site.py'));
  const entries: CassetteEntry[] = [
    { role: 'author', stage: 'author', iteration: 0, json: { plan: 'Exact diagonalisation of the 4x4 dimer Hamiltonian for each J; plot E0(J).', queries: ['numpy eigvalsh'] } },
    {
      role: 'author', stage: 'author', iteration: 0,
      rounds: [{ toolCalls: [{ name: 'retrieve', args: { query: 'numpy eigvalsh Hermitian eigenvalues', toolchain: 'tenpy' } }] }],
      json: { summary: [{ query: 'numpy eigvalsh', answer: 'numpy.linalg.eigvalsh returns ascending eigenvalues of a Hermitian matrix.' }] },
    },
    { role: 'coder', stage: 'author', iteration: 0, json: { script, notes: 'numpy only' } },
    {
      role: 'unit-test-writer', stage: 'programming', iteration: '*',
      json: { entries: [
        { function: 'site_spin_half', main: 'def main():\n    ops = site_spin_half()\n    print(len(ops))\n' },
        { function: 'hamiltonian_heisenberg_dimer', main: 'def main():\n    sz = np.diag([0.5, -0.5])\n    print(hamiltonian_heisenberg_dimer([sz, sz, sz], 1.0).shape)\n' },
        { function: 'effector_exact_diagonalization', main: 'def main():\n    print(effector_exact_diagonalization(np.diag([1.0, -1.0]))[0])\n' },
        { function: 'observable_ground_energy', main: 'def main():\n    print(observable_ground_energy([-0.75, 0.25]))\n' },
        { function: 'plot_energy', main: 'def main():\n    plot_energy([1.0, 2.0], [-0.75, -1.5])\n' },
      ] },
    },
    { role: 'assertion-writer', stage: 'scientific', iteration: '*', json: { variants: [{ case: 'limiting:0', main: 'def main():\n    e = run_energy_vs_coupling([2.0])\n    print("PHYSVEC_RESULT %.12f" % e[0])\n' }] } },
  ] as CassetteEntry[];
  const cassette = Cassette.parse({ name: 'task_smoke_dimer_pipeline', description: 'Hand-written answers for the pipeline smoke task (numpy dimer). Generated by scripts/make-cassettes.ts.', entries });
  const out = path.join(repoRoot, 'data', 'cassettes', 'task_smoke_dimer_pipeline.json');
  writeFileSync(out, JSON.stringify(cassette, null, 2) + '\n');
  console.log(`wrote ${out} (${entries.length} entries)`);
}
