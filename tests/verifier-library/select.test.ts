// selectBackground: for a target of one category, the verified functions of all other categories with
// their sources; assembled with a target and an entry point they form a runnable unit harness.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectToolchain } from '../../activities/toolchains/detect.js';
import { sandboxRunCheck } from '../../cli/verifier-library/run-check.js';
import { BadInputError } from '../../lib/errors.js';
import { getProfile } from '../../lib/toolchains/config.js';
import { selectBackground } from '../../lib/verifier-library/select.js';

test('a hamiltonian target gets every category but hamiltonian, in pipeline order, with sources and imports', () => {
  const sel = selectBackground('tenpy', 'hamiltonian');
  assert.equal(sel.language, 'python');
  assert.deepEqual(sel.categories, ['site', 'lattice', 'initialstate', 'effector', 'observable']);
  assert.ok(sel.functions.every((f) => f.category !== 'hamiltonian' && f.status === 'verified'));
  for (const f of sel.functions) {
    assert.ok(f.source.startsWith(`def ${f.name}(`), `${f.name}: the source is the function definition`);
    assert.match(f.name, /_verifier_/);
    assert.ok(f.doc.startsWith('Stands in for'));
  }
  assert.match(sel.preamble, /^from tenpy\.networks\.site import SpinHalfSite$/m);
  assert.equal(sel.preamble.split('\n').length, new Set(sel.preamble.split('\n')).size, 'import lines appear once');
  const siteSel = selectBackground('tenpy', 'site');
  assert.ok(siteSel.categories.includes('lattice') && !siteSel.categories.includes('site'));
  assert.ok(selectBackground('netket', 'plot').categories.length === 6, 'plot and item targets get every category');
});

test('ranking by the target source puts the matching site function first', () => {
  const target = `def hamiltonian_hubbard_trap(sites, L, t, U, V):
    # SpinHalfFermionSite sites: hopping Cdu/Cu, interaction NuNd, trap potential on Ntot
    ...`;
  const sel = selectBackground('tenpy', 'hamiltonian', { targetSource: target, perCategory: 1 });
  assert.equal(sel.functions.find((f) => f.category === 'site')!.name, 'site_verifier_spin_half_fermion_chain');
  assert.equal(sel.functions.filter((f) => f.category === 'site').length, 1);
});

test('unverified Julia functions are offered only on request; orca has no library; bad category is bad input', () => {
  const itensors = selectBackground('itensors', 'hamiltonian');
  assert.deepEqual(itensors.functions, []);
  const all = selectBackground('itensors', 'hamiltonian', { includeUnverified: true });
  assert.ok(all.functions.length >= 4 && all.functions.every((f) => f.status === 'unverified' && f.source.includes(`function ${f.name}(`)));
  assert.equal(all.language, 'julia');
  assert.deepEqual(selectBackground('orca', 'site').functions, []);
  assert.throws(() => selectBackground('tenpy', 'solver'), (e: unknown) => e instanceof BadInputError && /unknown element category "solver"/.test(e.message));
});

test('background functions + a target hamiltonian + an entry point run in the sandbox as a unit harness', { timeout: 300_000 }, async (t) => {
  const status = await detectToolchain(getProfile('tenpy'));
  if (!status.available) return t.skip(`tenpy is ${status.state} here: ${status.reason}`);
  const sel = selectBackground('tenpy', 'hamiltonian');
  const src = (name: string) => sel.functions.find((f) => f.name === name)?.source ?? assert.fail(`no ${name}`);
  // The target as an Author might write it: the two-site Heisenberg bond with explicit couplings.
  const target = `def hamiltonian_heisenberg_bond(sites, J):
    lat = TrivialLattice(sites)
    model = CouplingModel(lat)
    model.add_local_term(J, [("Sz", [0, 0]), ("Sz", [0, 1])])
    model.add_local_term(0.5 * J, [("Sp", [0, 0]), ("Sm", [0, 1])], plus_hc=True)
    return MPOModel(lat, model.calc_H_MPO())`;
  const harness = [
    sel.preamble,
    'import json',
    'from tenpy.models.lattice import TrivialLattice',
    'from tenpy.models.model import CouplingModel, MPOModel',
    '',
    src('site_verifier_spin_half_chain'),
    src('initialstate_verifier_product_state'),
    src('effector_verifier_dmrg'),
    src('observable_verifier_correlation_function'),
    target,
    '',
    'def main():',
    '    sites = site_verifier_spin_half_chain(2)',
    '    H = hamiltonian_heisenberg_bond(sites, 1.0)',
    '    energy, psi = effector_verifier_dmrg(H, initialstate_verifier_product_state(sites, ["up", "down"]), max_sweeps=6, chi_max=4)',
    '    szsz = observable_verifier_correlation_function(psi, "Sz", "Sz")[0, 1]',
    '    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": energy, "szsz": float(szsz)}))',
    '',
    'if __name__ == "__main__":',
    '    main()',
    '',
  ].join('\n');
  const run = await sandboxRunCheck('python')([{ path: 'unit_hamiltonian_heisenberg_bond.py', content: harness }], 'unit_hamiltonian_heisenberg_bond.py', 240_000);
  assert.equal(run.exitCode, 0, run.stderr);
  const line = run.stdout.split('\n').find((l) => l.startsWith('PHYSVEC_RESULT '))!;
  const result = JSON.parse(line.slice('PHYSVEC_RESULT '.length)) as { value: number; szsz: number };
  assert.ok(Math.abs(result.value + 0.75) < 1e-8, `two-site Heisenberg energy ${result.value}`);
  assert.ok(Math.abs(result.szsz + 0.25) < 1e-8);
});
