import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { execa } from 'execa';
import { BANNER, buildUnitHarness } from '../../lib/harness/unit-harness.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';
import { venvPython } from '../../lib/paths.js';
import { BadInputError } from '../../lib/errors.js';
import { fixture } from './fixture-scripts.js';

const numpyBackground = [
  {
    category: 'site' as const,
    source: 'def site_verifier_spin_half():\n    return {"X": np.array([[0.0, 1.0], [1.0, 0.0]]), "Z": np.diag([1.0, -1.0]), "I": np.eye(2)}',
  },
  { category: 'lattice' as const, source: 'def lattice_verifier_chain(L):\n    return [(i, i + 1) for i in range(L - 1)]' },
  {
    category: 'effector' as const,
    source: '    def effector_verifier_eigh(H):\n        w, v = np.linalg.eigh(H)\n        return w[0], v[:, 0]\n',
  },
];
const numpyEntry = `
def main():
    L = 3
    ops = site_verifier_spin_half()
    bonds = lattice_verifier_chain(L)
    H = hamiltonian_tfim(ops, bonds, L, J=1.0, h=0.0)
    e0, _ = effector_verifier_eigh(H)
    print("E0", round(float(e0), 10))
    assert abs(e0 + 2.0) < 1e-10, e0
`;

describe('buildUnitHarness (python, runs with the venv python)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-unit-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const structure = parseScript(fixture('numpy_tfim_exact.py').source, 'python');
  const harness = buildUnitHarness({ structure, target: 'hamiltonian_tfim', background: numpyBackground, entryPoint: numpyEntry, language: 'python' });

  it('assembles preamble, background, target, its helpers and the workflow in order', () => {
    assert.equal(harness.fileName, 'verify_hamiltonian_tfim_unittest.py');
    const text = harness.source;
    assert.ok(text.startsWith(structure.preamble.source));
    const order = [BANNER.background, '# site\ndef site_verifier_spin_half', '# effector\ndef effector_verifier_eigh', BANNER.underTest, BANNER.dependencies, BANNER.workflow];
    const positions = order.map((s) => text.indexOf(s));
    assert.ok(positions.every((p) => p >= 0), `all sections present: ${positions.join(',')}`);
    assert.deepEqual([...positions].sort((a, b) => a - b), positions);
    const target = structure.elementFunctions.find((f) => f.name === 'hamiltonian_tfim')!;
    assert.ok(text.includes(`${BANNER.underTest}\n${target.source}\n`));
    assert.ok(text.includes(`${BANNER.dependencies}\n${structure.otherFunctions[0]!.source}`), 'helper _embed included');
    assert.ok(!text.includes('def run_tfim_ground_state'), 'no run_ function in a unit harness');
    assert.ok(!text.includes('def observable_transverse_magnetization'));
    assert.ok(text.endsWith('    assert abs(e0 + 2.0) < 1e-10, e0\n\nif __name__ == "__main__":\n    main()\n'));
  });

  it('executes: the target passes with a correct environment', async () => {
    const file = path.join(dir, harness.fileName);
    writeFileSync(file, harness.source);
    const result = await execa(venvPython, [file], { cwd: dir, reject: false, timeout: 120_000 });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'E0 -2.0');
  });

  it('executes: a broken target fails with its own error', async () => {
    const broken = parseScript(structure.source.replace('H -= h * _embed(ops["X"], i, L, I)', 'H -= h * _embed(ops["Y"], i, L, I)'), 'python');
    const h = buildUnitHarness({ structure: broken, target: 'hamiltonian_tfim', background: numpyBackground, entryPoint: numpyEntry, language: 'python' });
    const file = path.join(dir, `broken_${h.fileName}`);
    writeFileSync(file, h.source);
    const result = await execa(venvPython, [file], { cwd: dir, reject: false, timeout: 120_000 });
    assert.notEqual(result.exitCode, 0);
    assert.match(result.stderr, /KeyError: 'Y'/);
  });

  it('rejects bad requests with a precise reason', () => {
    const base = { structure, background: numpyBackground, entryPoint: numpyEntry, language: 'python' as const };
    assert.throws(() => buildUnitHarness({ ...base, target: 'hamiltonian_xxz' }), /no element function named `hamiltonian_xxz`.*hamiltonian_tfim/);
    assert.throws(() => buildUnitHarness({ ...base, target: 'hamiltonian_tfim', entryPoint: 'def start():\n    pass' }), /entryPoint must define a function named `main`/);
    assert.throws(
      () => buildUnitHarness({ ...base, target: 'hamiltonian_tfim', background: [{ category: 'hamiltonian', source: 'def hamiltonian_tfim():\n    pass' }] }),
      /background\[0\] defines `hamiltonian_tfim`/,
    );
    assert.throws(() => buildUnitHarness({ ...base, target: 'hamiltonian_tfim', language: 'julia' }), BadInputError);
    assert.throws(() => buildUnitHarness({ ...base, target: '' }), /unit harness request: target/);
  });
});

describe('buildUnitHarness (julia, the paper example)', () => {
  const structure = parseScript(fixture('itensors_hubbard_density.jl').source, 'julia');
  const background = [
    {
      category: 'site' as const,
      source: 'function site_verifier_electron(N::Int; conserve_qns::Bool=false)\n    sites = siteinds("Electron", N; conserve_qns=conserve_qns)\n    return sites\nend',
    },
    {
      category: 'effector' as const,
      source: 'function effector_verifier_electron(H, psi0; nsweeps::Int=5, maxdim::Vector{Int}=[10, 20, 100], cutoff::Vector{Float64}=[1e-10])\n    energy, psi = dmrg(H, psi0; nsweeps=nsweeps, maxdim=maxdim, cutoff=cutoff)\n    return energy, psi\nend',
    },
  ];
  const entryPoint = [
    'function main()',
    '    L = 4; t = 1.0; U = 0.0; V = 0.0',
    '    sites = site_verifier_electron(L; conserve_qns=true)',
    '    psi0 = MPS(sites, ["Up", "Dn", "Up", "Dn"])',
    '    H = hamiltonian_Hubbard_potential(sites, L, t, U, V)',
    '    energy, psi = effector_verifier_electron(H, psi0)',
    '    println(energy)',
    'end',
  ].join('\n');

  it('matches the supplemental layout and ends by calling main()', () => {
    const h = buildUnitHarness({ structure, target: 'hamiltonian_Hubbard_potential', background, entryPoint, language: 'julia' });
    assert.equal(h.fileName, 'verify_hamiltonian_Hubbard_potential_unittest.jl');
    const target = structure.elementFunctions.find((f) => f.name === 'hamiltonian_Hubbard_potential')!;
    const expectedTail = `${BANNER.underTest}\n${target.source}\n\n\n${BANNER.workflow}\n${entryPoint}\n\nmain()\n`;
    assert.ok(h.source.endsWith(expectedTail));
    assert.ok(h.source.startsWith('using ITensors\nusing ITensorMPS\nusing Plots\nusing Random\n'));
    assert.ok(h.source.includes(`${BANNER.background}\n# site\nfunction site_verifier_electron`));
    const reparsed = parseScript(h.source, 'julia');
    assert.deepEqual(reparsed.elementFunctions.map((f) => f.name), ['site_verifier_electron', 'effector_verifier_electron', 'hamiltonian_Hubbard_potential']);
    assert.equal(reparsed.entryPointCall?.source, 'main()');
  });

  it('brings along the run_ chain an item_ function needs', () => {
    const h = buildUnitHarness({
      structure,
      target: 'item_density_data',
      background: [],
      entryPoint: 'function main()\n    item_density_data(4, 1, 1, 1.0, 0.0, 0.0, 0.0, 2, [10], [1e-8])\nend\nmain()',
      language: 'julia',
    });
    const deps = h.source.slice(h.source.indexOf(BANNER.dependencies), h.source.indexOf(BANNER.workflow));
    const names = parseScript(deps, 'julia');
    assert.deepEqual([...names.elementFunctions.map((f) => f.name), ...names.runFunctions.map((f) => f.name)].sort(), [
      'effector_dmrg_ground_state',
      'hamiltonian_Hubbard_potential',
      'initialstate_random_product',
      'observable_density_distributions',
      'run_density_calculation',
      'site_Fermion_Hubbard',
    ]);
    assert.ok(!h.source.includes(BANNER.background));
    assert.equal(h.source.match(/^main\(\)$/gm)?.length, 1, 'entry call not duplicated');
  });
});
