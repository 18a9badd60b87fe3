// Builds the scripted-model cassettes of the benchmark campaign's fast subset, one per (task, trial),
// each holding the answers of EVERY framework (PhysVEC, ReAct, ReAct-RAG, 1-shot) so one model id
// `scripted:campaign/{task}.t{trial}` serves a whole campaign row. Scripts are built from the tasks'
// real reference solutions with function-level faults; only the model's text is scripted — runs,
// verdicts and metrics are real.
//
// Scenario (so the frameworks' metrics differ the way the paper says they do):
//   trial 1 — the Author's script has two programming faults in different element functions (an
//     interface mismatch the full run hits first, then a wrong library call) and one physics fault
//     only a physical assertion catches.
//       PhysVEC:   unit + integration tests reveal both programming faults at once → one aggregated
//                  repair → executable at programming iteration 2; the assertion fails, the scientific
//                  repair fixes it (scientific iteration 2), convergence passes → completed.
//       ReAct:     sees one runtime error per run → executable at iteration 3; physics fault stays.
//       ReAct-RAG: as ReAct, each repair first calls `retrieve` (T_c > 0).
//       1-shot:    the Author's script as is → not executable.
//   trial 2 — the Author's script is correct → every framework executable at iteration 1 and completed.
// Token counts (`usage`) are estimated from the prompt and answer sizes (≈ 3.6 characters a token),
// so T_i / T_o are realistic and differ between frameworks.
//
//   node --import tsx scripts/make-campaign-cassettes.ts   → data/cassettes/campaign/<task>.t<trial>.json
import { mkdirSync, readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../lib/paths.js';
import { loadMutant } from '../lib/tasks/source-edits.js';
import { parseScript } from '../lib/script-analysis/index.js';
import { loadTaskFile } from '../lib/tasks/load-task.js';
import { Cassette, type CassetteEntry } from '../schemas/llm.js';
import type { WorkflowCallKey } from '../schemas/agent-roles.js';

const read = (p: string) => readFileSync(p, 'utf8');
const refs = path.join(repoRoot, 'data', 'references');
const outDir = path.join(repoRoot, 'data', 'cassettes', 'campaign');

type Fn = { name: string; source: string };

function functionsOf(src: string): Fn[] {
  const s = parseScript(src, 'python');
  return [...s.elementFunctions, ...s.runFunctions, ...s.otherFunctions, ...(s.main ? [{ name: 'main', source: s.main.source }] : [])] as Fn[];
}

/** `src` with the named function's definition replaced whole (it must occur exactly once). */
function replaceFunction(src: string, name: string, next: string): string {
  const fn = functionsOf(src).find((f) => f.name === name);
  if (!fn) throw new Error(`no function ${name} in the script`);
  const at = src.indexOf(fn.source);
  if (at < 0 || src.indexOf(fn.source, at + 1) >= 0) throw new Error(`the definition of ${name} does not occur exactly once`);
  return src.slice(0, at) + next.trimEnd() + src.slice(at + fn.source.trimEnd().length);
}

function sourceOf(src: string, name: string): string {
  const fn = functionsOf(src).find((f) => f.name === name);
  if (!fn) throw new Error(`no function ${name} in the script`);
  return fn.source.trimEnd() + '\n';
}

const tokens = (chars: number) => Math.ceil(chars / 3.6);
/** Estimated usage: fixed prompt text + what the prompt carries (script, report, error) → the answer's size. */
function usage(promptChars: number, answer: unknown): NonNullable<CassetteEntry['usage']> {
  return { inputTokens: tokens(promptChars), outputTokens: tokens(JSON.stringify(answer).length) };
}

interface Fault {
  function: string;
  /** The faulty definition, whole. */
  faulty: string;
  /** What a repairer says about it. */
  suggestion: string;
}

interface TaskSpec {
  taskId: string;
  taskFile: string;
  correct: string;
  /** Two programming faults in the order the full run hits them, then the physics fault. */
  firstRuntime: Fault;
  secondRuntime: Fault;
  physics: Fault;
  plan: { plan: string; queries: string[] };
  querySummary: { retrieve: { query: string; toolchain: string }[]; summary: { query: string; answer: string }[] };
  /** ReAct-RAG's documentation lookups, one list per repair (iteration 1, 2). */
  ragQueries: [{ query: string; toolchain: string }[], { query: string; toolchain: string }[]];
  unitEntries: { function: string; main: string }[];
  variants: { case: string; main: string }[];
  convergence?: { main: string; schedule: { start: number; factor?: number; step?: number; max: number } }[];
}

function variantMains(taskId: string): { case: string; main: string }[] {
  const out: { case: string; main: string }[] = [];
  for (const kind of ['limiting', 'scientific']) {
    const d = path.join(refs, taskId, kind);
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d).filter((x) => x.endsWith('.main.py')).sort((a, b) => parseInt(a) - parseInt(b))) out.push({ case: `${kind}:${parseInt(f)}`, main: read(path.join(d, f)) });
  }
  return out;
}

async function build(spec: TaskSpec): Promise<void> {
  const task = await loadTaskFile(spec.taskFile);
  const leaves = task.rubric.leaves ?? [];
  // As activities/pipeline/prepare-task.ts decides whether the rubric test runs.
  const rubricAvailable = task.rubric.found && leaves.length > 0 && task.rubric.normCheck?.ok !== false;
  const request = task.task.User_requests.length;

  const faulty = [spec.firstRuntime, spec.secondRuntime, spec.physics].reduce((s, f) => replaceFunction(s, f.function, f.faulty), spec.correct);
  const afterFirst = replaceFunction(faulty, spec.firstRuntime.function, sourceOf(spec.correct, spec.firstRuntime.function));
  const afterProgramming = replaceFunction(afterFirst, spec.secondRuntime.function, sourceOf(spec.correct, spec.secondRuntime.function));
  const fix = (f: Fault, suggestion = f.suggestion) => ({ suggestions: [suggestion], functions: [{ name: f.function, source: sourceOf(spec.correct, f.function) }] });
  const programmingFix = {
    suggestions: [spec.firstRuntime.suggestion, spec.secondRuntime.suggestion],
    functions: [spec.firstRuntime, spec.secondRuntime].map((f) => ({ name: f.function, source: sourceOf(spec.correct, f.function) })),
  };
  // Sanity: the repairs lead back to the reference solution.
  if (replaceFunction(afterProgramming, spec.physics.function, sourceOf(spec.correct, spec.physics.function)) !== spec.correct) throw new Error(`${spec.taskId}: the fixes do not restore the reference`);

  for (const trial of [1, 2]) {
    const author = trial === 1 ? faulty : spec.correct;
    const e: CassetteEntry[] = [];
    // Keyed by the workflows' own role and stage names (schemas/agent-roles.ts).
    const add = (entry: Omit<CassetteEntry, 'usage' | 'json' | 'role' | 'stage'> & WorkflowCallKey & { json: unknown }, promptChars: number) => e.push({ ...entry, usage: usage(promptChars, entry.json) } as CassetteEntry);
    const graded = { judges: leaves.map((l) => ({ index: l.index, judge: 1 as const, support: 'satisfied by the code' })) };

    // ---- the Author (PhysVEC and 1-shot: plan + documentation; ReAct: the coder call alone) ------
    add({ role: 'author', stage: 'author', iteration: 0, json: spec.plan }, 9000 + request);
    add({
      role: 'author', stage: 'author', iteration: 0,
      rounds: [{ toolCalls: spec.querySummary.retrieve.map((args) => ({ name: 'retrieve', args })) }],
      json: { summary: spec.querySummary.summary },
    }, 2400 + request + spec.plan.plan.length + 4500 * spec.querySummary.retrieve.length);
    add({ role: 'coder', stage: 'author', iteration: 0, json: { script: author, notes: trial === 1 ? 'Element-function script at the task size.' : 'Element-function script at the task size; checked against the exact evolution in main.' } }, 11000 + request);

    // ---- PhysVEC ----------------------------------------------------------------------------------
    const unitJson = { entries: spec.unitEntries };
    for (const stage of ['programming', 'evaluation'] as const) add({ role: 'unit-test-writer', stage, iteration: '*', json: unitJson }, 5200 + author.length);
    if (trial === 1) add({ role: 'repairer', stage: 'programming', iteration: 1, json: programmingFix }, 1900 + faulty.length + 2600);
    if (rubricAvailable) {
      for (const stage of ['scientific', 'evaluation'] as const) {
        for (let k = 0; k < 2; k++) {
          add({ role: 'rubric-grader', stage, iteration: '*', json: graded }, 1500 + 120 * leaves.length + author.length);
          add({ role: 'rubric-consistency', stage, iteration: '*', json: graded }, 900 + 220 * leaves.length);
        }
      }
    }
    const variantsJson = { variants: spec.variants };
    const cases = spec.variants.length;
    for (const stage of ['scientific', 'evaluation'] as const) add({ role: 'assertion-writer', stage, iteration: '*', json: variantsJson }, 900 + 260 * cases + author.length);
    if (trial === 1) add({ role: 'repairer', stage: 'scientific', iteration: 1, json: fix(spec.physics) }, 1600 + afterProgramming.length + 500);
    for (const [i, c] of (spec.convergence ?? []).entries()) add({ role: 'convergence-writer', stage: 'convergence', iteration: i + 1, json: c }, 1100 + spec.correct.length);

    // ---- ReAct and ReAct-RAG: one runtime error per repair ----------------------------------------
    if (trial === 1) {
      for (const [it, f, before] of [[1, spec.firstRuntime, faulty], [2, spec.secondRuntime, afterFirst]] as const) {
        add({ role: 'react-repairer', stage: 'react', iteration: it, json: fix(f) }, 1300 + before.length + 900);
        add({
          role: 'react-repairer', stage: 'react-rag', iteration: it,
          rounds: [{ toolCalls: spec.ragQueries[it - 1].map((args) => ({ name: 'retrieve', args })) }],
          json: fix(f),
        }, 1500 + before.length + 900 + 4500 * spec.ragQueries[it - 1].length);
      }
    }

    const description = trial === 1
      ? `Campaign cassette (all frameworks), trial 1: the Author's script has two programming faults (${spec.firstRuntime.function}, then ${spec.secondRuntime.function}) and a physics fault in ${spec.physics.function} that only an assertion catches. Generated by scripts/make-campaign-cassettes.ts.`
      : 'Campaign cassette (all frameworks), trial 2: the Author writes a correct script. Generated by scripts/make-campaign-cassettes.ts.';
    const cassette = Cassette.parse({ name: `campaign/${spec.taskId}.t${trial}`, description, entries: e });
    mkdirSync(outDir, { recursive: true });
    const out = path.join(outDir, `${spec.taskId}.t${trial}.json`);
    writeFileSync(out, JSON.stringify(cassette, null, 2) + '\n');
    console.log(`wrote ${path.relative(repoRoot, out)} (${e.length} entries)`);
  }
}

// ---- the numpy dimer (pipeline smoke task) --------------------------------------------------------
await build({
  taskId: 'task_smoke_dimer_pipeline',
  taskFile: path.join(repoRoot, 'data/tasks/smoke/task_smoke_dimer_pipeline.json'),
  correct: read(path.join(repoRoot, 'data/smoke/heisenberg_two_site.py')),
  firstRuntime: {
    function: 'site_spin_half',
    faulty: 'def site_spin_half():\n    sx = np.array([[0, 1], [1, 0]]) / 2\n    sy = np.array([[0, -1j], [1j, 0]]) / 2\n    sz = np.array([[1, 0], [0, -1]]) / 2\n    return {"Sx": sx, "Sy": sy, "Sz": sz}\n',
    suggestion: 'site_spin_half returns a dict while hamiltonian_heisenberg_dimer iterates over the operators (it got the key strings): return the tuple (sx, sy, sz)',
  },
  secondRuntime: {
    function: 'effector_exact_diagonalization',
    faulty: 'def effector_exact_diagonalization(H):\n    return np.linalg.eigvalsh(H, eigvals_only=True)\n',
    suggestion: 'effector_exact_diagonalization passes scipy.linalg.eigh\'s eigvals_only to numpy.linalg.eigvalsh, which has no such argument: call np.linalg.eigvalsh(H)',
  },
  physics: {
    function: 'hamiltonian_heisenberg_dimer',
    faulty: 'def hamiltonian_heisenberg_dimer(ops, J):\n    return -J * sum(np.kron(s, s) for s in ops)\n',
    suggestion: 'hamiltonian_heisenberg_dimer has the wrong sign: H = J S1.S2 (antiferromagnetic for J > 0); the limiting case J = 2 printed -0.5 where the singlet energy is -3J/4',
  },
  plan: { plan: 'Exact diagonalisation of the 4x4 dimer Hamiltonian H = J S1.S2 (spin-1/2 operators S = sigma/2) for J = 0.5, 1, 1.5, 2; the ground-state energy is the lowest eigenvalue; plot E0 against J with the singlet line -3J/4.', queries: ['numpy eigvalsh Hermitian eigenvalues', 'numpy kron tensor product of operators'] },
  querySummary: {
    retrieve: [{ query: 'numpy eigvalsh Hermitian eigenvalues', toolchain: 'tenpy' }, { query: 'numpy kron Kronecker product', toolchain: 'tenpy' }],
    summary: [
      { query: 'numpy eigvalsh', answer: 'numpy.linalg.eigvalsh(a, UPLO="L") returns the eigenvalues of a Hermitian matrix in ascending order.' },
      { query: 'numpy kron', answer: 'numpy.kron(a, b) is the Kronecker product: the two-site operator S1^a S2^a is kron(s_a, s_a).' },
    ],
  },
  ragQueries: [
    [{ query: 'numpy kron operator product arguments', toolchain: 'tenpy' }],
    [{ query: 'numpy linalg eigvalsh arguments', toolchain: 'tenpy' }, { query: 'scipy linalg eigh eigvals_only', toolchain: 'tenpy' }],
  ],
  unitEntries: [
    { function: 'site_spin_half', main: 'def main():\n    ops = site_spin_half()\n    print(len(ops))\n' },
    { function: 'hamiltonian_heisenberg_dimer', main: 'def main():\n    sz = np.diag([0.5, -0.5])\n    print(hamiltonian_heisenberg_dimer([sz, sz, sz], 1.0).shape)\n' },
    { function: 'effector_exact_diagonalization', main: 'def main():\n    print(effector_exact_diagonalization(np.diag([1.0, -1.0]))[0])\n' },
    { function: 'observable_ground_energy', main: 'def main():\n    print(observable_ground_energy([-0.75, 0.25]))\n' },
    { function: 'plot_energy', main: 'def main():\n    plot_energy([1.0, 2.0], [-0.75, -1.5])\n' },
  ],
  variants: [{ case: 'limiting:0', main: 'def main():\n    e = run_energy_vs_coupling([2.0])\n    print("PHYSVEC_RESULT %.12f" % e[0])\n' }],
});

// ---- qsim: Trotterized domain-wall quench with Qiskit (reference runs in ~7 s) --------------------
{
  const taskId = 'task_qsim_trotter_domain_wall';
  const dir = path.join(refs, taskId);
  const mutant = (await loadMutant(dir, 'removed_execute_api')).source;
  const spinHalf = (await loadMutant(dir, 'spin_half_factor')).source;
  const conv = JSON.parse(read(path.join(dir, 'convergence', '0.schedule.json'))) as { factor?: number; step?: number; max: number };
  const q = (query: string) => ({ query, toolchain: 'qiskit' });
  await build({
    taskId,
    taskFile: path.join(repoRoot, 'data/tasks/qsim', `${taskId}.json`),
    correct: read(path.join(dir, 'solution.py')),
    firstRuntime: {
      function: 'initialstate_domain_wall',
      faulty: [
        'def initialstate_domain_wall(n_sites, n_down_left):',
        '    """Product state with the first n_down_left sites down (|1>) and the rest up (|0>)."""',
        '    label = "0" * (n_sites - n_down_left) + "1" * n_down_left  # little-endian: qubit 0 is the last character',
        '    return Statevector.from_label(label)',
        '',
      ].join('\n'),
      suggestion: 'initialstate_domain_wall returns a Statevector but effector_trotter_circuit appends gates to it (no attribute rxx): return the QuantumCircuit that prepares the domain wall',
    },
    secondRuntime: {
      function: 'effector_estimate',
      faulty: sourceOf(mutant, 'effector_estimate'),
      suggestion: 'effector_estimate imports Aer and execute from qiskit, removed in qiskit 1.0: evaluate the expectation values with qiskit.primitives.StatevectorEstimator',
    },
    physics: {
      function: 'hamiltonian_xxz_layers',
      // The mutant's comment names the fault; an Author who made it would not have written it.
      faulty: sourceOf(spinHalf, 'hamiltonian_xxz_layers').replace(/^[ \t]*# spin-1\/2 operators.*\n/m, ''),
      suggestion: 'hamiltonian_xxz_layers writes the exchange with S = sigma/2 (couplings J/4), but the model is defined in Pauli matrices: use J and J*delta; the one-bond limiting case printed cos(Jt) instead of cos(4Jt)',
    },
    plan: {
      plan: [
        'Goal: the Trotter curves of Fig. 2a/2b (Smith et al., npj Quantum Inf. 5, 106): <sigma^z_4>(t) and <sigma^z_6>(t) after a quench from the domain wall |ddduuu>.',
        '1. Lattice: open chain of 6 qubits, bonds split into even and odd layers.',
        '2. Hamiltonian: H = J sum (XX + YY + delta ZZ) + sum h_i Z_i in Pauli matrices, as SparsePauliOp layers.',
        '3. Initial state: X on qubits 0..2 (spin down = |1>).',
        '4. Second-order Trotter circuits (rxx, ryy, rzz, rz), 10 steps per unit time, Jt in [0, 3].',
        '5. Expectation values with StatevectorEstimator; exact evolution by expm_multiply for comparison.',
      ].join('\n'),
      queries: ['qiskit SparsePauliOp from_sparse_list', 'qiskit StatevectorEstimator run expectation values', 'qiskit QuantumCircuit rxx ryy rzz'],
    },
    querySummary: {
      retrieve: [q('SparsePauliOp from_sparse_list'), q('StatevectorEstimator expectation values')],
      summary: [
        { query: 'SparsePauliOp', answer: 'SparsePauliOp.from_sparse_list([("XX", [i, j], c), ...], num_qubits=n) builds a Pauli sum; labels act on the listed qubits (little-endian).' },
        { query: 'StatevectorEstimator', answer: 'StatevectorEstimator().run([(circuit, observables)]).result()[0].data.evs gives exact expectation values (qiskit 2 primitives).' },
        { query: 'rotation gates', answer: 'QuantumCircuit.rxx(theta, q1, q2) = exp(-i theta/2 XX); likewise ryy, rzz, rz.' },
      ],
    },
    ragQueries: [
      [q('QuantumCircuit initialize basis state X gates'), q('Statevector from_label')],
      [q('qiskit Aer execute removed primitives'), q('StatevectorEstimator run pubs evs')],
    ],
    unitEntries: [
      { function: 'lattice_open_chain', main: 'def main():\n    print(lattice_open_chain(6))\n' },
      { function: 'hamiltonian_xxz_layers', main: 'def main():\n    layers = hamiltonian_xxz_layers(4, [(0, 1), (2, 3)], [(1, 2)], 1.0, 0.5, [0.1, 0.2, 0.3, 0.4])\n    print([len(layer) for layer in layers])\n' },
      { function: 'initialstate_domain_wall', main: 'def main():\n    print(initialstate_domain_wall(4, 2))\n' },
      {
        function: 'effector_trotter_circuit',
        main: 'def main():\n    init = QuantumCircuit(2)\n    init.x(0)\n    layers = [SparsePauliOp.from_sparse_list([("XX", [0, 1], 1.0), ("YY", [0, 1], 1.0)], num_qubits=2), SparsePauliOp.from_sparse_list([("Z", [0], 0.3)], num_qubits=2)]\n    qc = effector_trotter_circuit(init, layers, 0.3, 2)\n    print(Statevector(qc).expectation_value(SparsePauliOp.from_sparse_list([("Z", [1], 1.0)], num_qubits=2)).real)\n',
      },
      { function: 'observable_local_magnetisations', main: 'def main():\n    print([str(o.paulis[0]) for o in observable_local_magnetisations(4)])\n' },
      { function: 'effector_estimate', main: 'def main():\n    qc = QuantumCircuit(2)\n    qc.x(0)\n    obs = [SparsePauliOp.from_sparse_list([("Z", [q], 1.0)], num_qubits=2) for q in range(2)]\n    print(effector_estimate([qc], obs))\n' },
      {
        function: 'effector_exact_evolution',
        main: 'def main():\n    init = QuantumCircuit(2)\n    init.x(0)\n    layers = [SparsePauliOp.from_sparse_list([("XX", [0, 1], 1.0), ("YY", [0, 1], 1.0)], num_qubits=2)]\n    states = effector_exact_evolution(init, layers, [0.0, 0.3])\n    print(len(states), states[1].probabilities())\n',
      },
      { function: 'observable_expectations_of_states', main: 'def main():\n    s = Statevector.from_label("01")\n    print(observable_expectations_of_states([s], [SparsePauliOp("IZ"), SparsePauliOp("ZI")]))\n' },
      { function: 'plot_magnetisation', main: 'def main():\n    times = np.linspace(0.0, 1.0, 3)\n    m = np.zeros((3, 6))\n    plot_magnetisation(times, m, m, sites=[4, 6], filename="unit.png")\n' },
    ],
    variants: variantMains(taskId),
    // Starting at 4 steps keeps the escalation within the default six steps (4, 8, 16, 32 converges).
    convergence: [{ main: read(path.join(dir, 'convergence', '0.main.py')), schedule: { start: 4, factor: conv.factor, step: conv.step, max: conv.max } }],
  });
}
