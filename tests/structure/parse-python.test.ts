import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScriptStructure } from '../../schemas/script-structure.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';
import { ScriptSyntaxError } from '../../lib/script-analysis/source-text.js';
import { fixture, lineOf } from './fixture-scripts.js';

function parseFixture(name: string) {
  const { source, language } = fixture(name);
  const structure = parseScript(source, language);
  ScriptStructure.parse(structure);
  return { source, structure };
}

describe('parseScript (python fixtures)', () => {
  it('splits the tenpy DMRG Hubbard script into element functions, run_, main and entry point', () => {
    const { source, structure } = parseFixture('tenpy_dmrg_hubbard.py');
    assert.deepEqual(
      structure.elementFunctions.map((f) => [f.category, f.name]),
      [
        ['site', 'site_spinful_fermion'],
        ['lattice', 'lattice_open_chain'],
        ['hamiltonian', 'hamiltonian_hubbard_trap'],
        ['initialstate', 'initialstate_alternating_filling'],
        ['effector', 'effector_dmrg_ground_state'],
        ['observable', 'observable_spin_densities'],
        ['item', 'item_density_data'],
        ['plot', 'plot_density_distributions'],
      ],
    );
    const [run] = structure.runFunctions;
    assert.equal(run?.name, 'run_density_calculation');
    assert.deepEqual(run.params, ['L', 'N_up', 'N_down', 't', 'U', 'V', 'chi_max', 'max_sweeps']);
    assert.deepEqual(
      run.calls.map((c) => c.name),
      [
        'site_spinful_fermion',
        'lattice_open_chain',
        'hamiltonian_hubbard_trap',
        'initialstate_alternating_filling',
        'effector_dmrg_ground_state',
        'observable_spin_densities',
      ],
    );
    assert.equal(run.calls[4]!.statementSource, 'energy, psi = effector_dmrg_ground_state(H, psi0, chi_max, max_sweeps)');
    assert.equal(run.calls[4]!.line, lineOf(source, 'energy, psi = effector_dmrg_ground_state'));
    assert.deepEqual(structure.main?.callees, ['item_density_data', 'plot_density_distributions']);
    assert.equal(structure.entryPointCall?.source, 'if __name__ == "__main__":\n    main()');
    assert.match(structure.preamble.source, /^"""Density profiles[\s\S]*from tenpy.networks.site import SpinHalfFermionSite$/);
  });

  it('gives spans whose offsets and lines agree with the text', () => {
    for (const name of ['tenpy_dmrg_hubbard.py', 'netket_vmc_heisenberg.py', 'qiskit_tfim_quench.py', 'pyscf_h2_dissociation.py', 'numpy_tfim_exact.py']) {
      const { source, structure } = parseFixture(name);
      const fns = [...structure.elementFunctions, ...structure.runFunctions, structure.main!, ...structure.otherFunctions];
      for (const fn of fns) {
        assert.equal(source.slice(fn.span.startOffset, fn.span.endOffset), fn.source, `${name}:${fn.name}`);
        assert.equal(fn.span.startLine, lineOf(source, `def ${fn.name}(`), `${name}:${fn.name} start line`);
        assert.ok(fn.source.startsWith(`def ${fn.name}(`));
        const lastLine = source.split('\n')[fn.span.endLine - 1]!;
        assert.ok(fn.source.endsWith(lastLine.trim()), `${name}:${fn.name} ends on its last line`);
      }
    }
  });

  it('reads NetKet, Qiskit and PySCF scripts with loops, comprehensions and union-typed params', () => {
    const netket = parseFixture('netket_vmc_heisenberg.py').structure;
    assert.deepEqual(netket.runFunctions[0]!.calls.map((c) => c.name), [
      'lattice_periodic_chain',
      'site_spin_half_hilbert',
      'hamiltonian_heisenberg',
      'initialstate_rbm_state',
      'effector_vmc_optimize',
      'observable_energy_per_site',
      'observable_energy_history',
    ]);
    const hilbert = netket.elementFunctions.find((f) => f.name === 'site_spin_half_hilbert')!;
    assert.equal(hilbert.signature, 'def site_spin_half_hilbert(graph: nk.graph.Graph, total_sz: float | None = 0.0) -> nk.hilbert.Spin:');
    assert.deepEqual(hilbert.params, ['graph', 'total_sz']);

    const qiskit = parseFixture('qiskit_tfim_quench.py').structure;
    const quench = qiskit.runFunctions[0]!;
    assert.deepEqual(quench.calls.map((c) => c.name).slice(-2), ['effector_trotter_evolution', 'observable_z_magnetization']);
    assert.equal(quench.calls.at(-1)!.statementSource, 'magnetization.append(observable_z_magnetization(evolved))');
    assert.deepEqual(qiskit.elementFunctions.find((f) => f.name === 'item_quench_curves')!.callees, ['run_quench_dynamics']);

    const pyscf = parseFixture('pyscf_h2_dissociation.py').structure;
    assert.deepEqual(pyscf.runFunctions[0]!.calls.map((c) => c.name), [
      'site_h2_geometry',
      'hamiltonian_molecule',
      'effector_rhf',
      'effector_fci',
      'observable_energies',
    ]);
    assert.equal(pyscf.runFunctions[0]!.calls[3]!.statementSource, 'e_fci, _ = effector_fci(mf)');
  });

  it('keeps helpers without prefix apart and sees top-level constants after functions', () => {
    const { structure } = parseFixture('numpy_tfim_exact.py');
    assert.deepEqual(structure.otherFunctions.map((f) => [f.name, f.kind]), [['_embed', 'function']]);
    assert.deepEqual(structure.elementFunctions.find((f) => f.name === 'hamiltonian_tfim')!.callees, ['_embed']);
    assert.equal(structure.entryPointCall?.source, 'if __name__ == "__main__":\n    sys.exit(main())');
    assert.match(structure.preamble.source, /RESULTS_FILE = "tfim_magnetization.json"  # written by plot_magnetization_table$/);
    // the `with` statement spans two physical lines and is one statement
    const call = structure.runFunctions[0]!.calls[2]!;
    assert.equal(call.statementSource, 'H = hamiltonian_tfim(ops, bonds, L,\n                             J=J, h=h)');
    assert.equal(call.statementSpan.endLine - call.statementSpan.startLine, 1);
  });
});

describe('parseScript (python edge cases)', () => {
  const tricky = [
    '#!/usr/bin/env python',
    '"""Docstring with def site_fake(x): and run_fake() inside."""',
    'import functools',
    "TEMPLATE = '''",
    'def hamiltonian_in_string(x):',
    "    return x'''",
    '',
    '@functools.lru_cache(maxsize=None)',
    '@staticmethod',
    'def site_chain(L: int,',
    '               spin: "float" = 0.5,',
    '               *args,',
    '               cons: str | None = None, **kwargs) -> dict[str, int]:',
    '    """def not_a_function(): also not a run_x()"""',
    "    label = f\"{'#'} {L!r:>4} {{braces}}\"  # a comment with def fake():",
    '    return {"L": L, \\',
    '            "label": label}',
    '',
    'class Params:',
    '    def run_method(self):',
    '        return site_chain(2)',
    '',
    'async def effector_async(x):',
    '    return x',
    '',
    'def run_chain(L):',
    '    def inner(n):',
    '        return effector_async(n)',
    '    lat = site_chain(L)  # comment',
    '    pick = lambda v: effector_async(v)',
    '    if lat: out = effector_async(lat)',
    '    return out',
    '',
    'def main():',
    '    run_chain(4)',
    '',
    'main()',
  ].join('\n');

  it('handles decorators, multi-line signatures, strings and comments that contain def', () => {
    const s = parseScript(tricky, 'python');
    assert.deepEqual(s.elementFunctions.map((f) => f.name), ['site_chain', 'effector_async']);
    const site = s.elementFunctions[0]!;
    assert.equal(site.span.startLine, 8, 'span starts at the first decorator');
    assert.ok(site.source.startsWith('@functools.lru_cache(maxsize=None)\n@staticmethod\ndef site_chain('));
    assert.ok(site.source.endsWith('"label": label}'));
    assert.equal(site.signature.split('\n').length, 4);
    assert.ok(site.signature.endsWith('-> dict[str, int]:'));
    assert.deepEqual(site.params, ['L', 'spin', 'args', 'cons', 'kwargs']);
    assert.deepEqual(s.otherFunctions.map((f) => [f.name, f.kind]), [['Params', 'type']]);
    assert.ok(s.preamble.source.includes("def hamiltonian_in_string(x):"), 'the def inside a string stays preamble text');
    assert.equal(s.elementFunctions[1]!.signature, 'async def effector_async(x):');
  });

  it('lists run_ calls in order, skipping nested defs but keeping lambdas and one-line compounds', () => {
    const s = parseScript(tricky, 'python');
    const run = s.runFunctions[0]!;
    assert.deepEqual(run.calls.map((c) => [c.name, c.line]), [
      ['site_chain', 29],
      ['effector_async', 30],
      ['effector_async', 31],
    ]);
    assert.equal(run.calls[0]!.statementSource, 'lat = site_chain(L)  # comment');
    assert.deepEqual(run.callees, ['effector_async', 'site_chain'], 'callees include the nested def');
    assert.equal(s.entryPointCall?.source, 'main()');
  });

  it('reports an unterminated string and an unclosed bracket with their line', () => {
    assert.throws(() => parseScript('import os\n\ndef site_a():\n    return "oops\n', 'python'), (err: unknown) => {
      assert.ok(err instanceof ScriptSyntaxError);
      assert.equal(err.line, 4);
      assert.match(err.message, /unterminated string/);
      return true;
    });
    assert.throws(() => parseScript('def site_a(:\n    x = [1, 2\n', 'python'), /line 2: '\[' is never closed/);
    assert.throws(() => parseScript('x = """never closed\n\n', 'python'), /line 1: unterminated string/);
  });
});
