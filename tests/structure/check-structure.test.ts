import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkStructure, inspectScript } from '../../lib/script-analysis/check-structure.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';
import { fixture, lineOf } from './fixture-scripts.js';

const codes = (source: string, language: 'python' | 'julia') => checkStructure(parseScript(source, language)).map((p) => p.code);

describe('checkStructure', () => {
  it('accepts every structured fixture', () => {
    for (const name of [
      'tenpy_dmrg_hubbard.py',
      'netket_vmc_heisenberg.py',
      'qiskit_tfim_quench.py',
      'pyscf_h2_dissociation.py',
      'numpy_tfim_exact.py',
      'itensors_hubbard_density.jl',
    ]) {
      const { source, language } = fixture(name);
      assert.deepEqual(checkStructure(parseScript(source, language)), [], name);
    }
  });

  it('rejects a flat ReAct-style script with the three missing pieces', () => {
    const { source } = fixture('unstructured_tenpy.py');
    const problems = checkStructure(parseScript(source, 'python'));
    assert.deepEqual(problems.map((p) => p.code), ['NO_ELEMENT_FUNCTIONS', 'NO_RUN_FUNCTION', 'MAIN_MISSING']);
    assert.match(problems[0]!.message, /site_, lattice_, hamiltonian_, initialstate_, effector_, observable_, item_, plot_/);
  });

  it('names misnamed element functions and the fix', () => {
    const { source } = fixture('misnamed_julia.jl');
    const problems = checkStructure(parseScript(source, 'julia'));
    assert.deepEqual(problems.map((p) => [p.code, p.functionName]), [
      ['UNKNOWN_ELEMENT_CATEGORY', 'Hamiltonian_Ising'],
      ['UNKNOWN_ELEMENT_CATEGORY', 'initial_state_up'],
      ['RUN_CALLS_NO_ELEMENT', 'run_ising'],
      ['MAIN_MISSING', undefined],
    ]);
    assert.match(problems[0]!.message, /line 3\).*rename it to `hamiltonian_Ising`/);
    assert.match(problems[1]!.message, /rename it to `initialstate_up`/);
    assert.equal(problems[2]!.line, lineOf(source, 'function run_ising'));
  });

  it('flags a main that bypasses run_/item_, an unreached run_, a duplicate and a missing entry call', () => {
    const script = [
      'def site_a(L):',
      '    return L',
      '',
      'def run_a(L):',
      '    return site_a(L)',
      '',
      'def site_a(L):',
      '    return 2 * L',
      '',
      'def main():',
      '    print(site_a(3))',
    ].join('\n');
    const problems = checkStructure(parseScript(script, 'python'));
    assert.deepEqual(problems.map((p) => p.code), ['DUPLICATE_FUNCTION', 'MAIN_CALLS_NO_RUN_OR_ITEM', 'RUN_NOT_REACHED_FROM_MAIN', 'NO_ENTRY_POINT']);
    assert.match(problems[0]!.message, /`site_a` is defined 2 times \(lines 1, 7\)/);
    assert.match(problems[3]!.message, /if __name__ == "__main__":/);
  });

  it('accepts a run_ reached through an item_ function', () => {
    const script = [
      'function site_a(L)', '    return L', 'end',
      'function run_a(L)', '    s = site_a(L)', '    return s', 'end',
      'function item_a(L)', '    return run_a(L)', 'end',
      'function main()', '    item_a(3)', 'end',
      'main()',
    ].join('\n');
    assert.deepEqual(codes(script, 'julia'), []);
  });

  it('turns a syntax error into a PARSE_ERROR problem via inspectScript', () => {
    const result = inspectScript('def site_a(L):\n    return "x\n', 'python');
    assert.equal(result.structure, null);
    assert.deepEqual(result.problems.map((p) => [p.code, p.line]), [['PARSE_ERROR', 2]]);
    const ok = inspectScript(fixture('numpy_tfim_exact.py').source, 'python');
    assert.ok(ok.structure);
    assert.deepEqual(ok.problems, []);
  });
});
