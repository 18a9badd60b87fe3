import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseScript } from '../../lib/script-analysis/parse-script.js';
import { ScriptSyntaxError } from '../../lib/script-analysis/source-text.js';
import { ScriptStructure } from '../../schemas/script-structure.js';
import { fixture, lineOf } from './fixture-scripts.js';

describe('parseScript (julia, the paper-shaped ITensors script)', () => {
  const { source } = fixture('itensors_hubbard_density.jl');
  const s = ScriptStructure.parse(parseScript(source, 'julia'));

  it('finds the element functions of the supplemental example with their categories', () => {
    assert.deepEqual(
      s.elementFunctions.map((f) => [f.category, f.name]),
      [
        ['site', 'site_Fermion_Hubbard'],
        ['hamiltonian', 'hamiltonian_Hubbard_potential'],
        ['initialstate', 'initialstate_random_product'],
        ['observable', 'observable_density_distributions'],
        ['effector', 'effector_dmrg_ground_state'],
        ['item', 'item_density_data'],
        ['plot', 'plot_density_distributions'],
      ],
    );
    assert.deepEqual(s.runFunctions.map((r) => r.name), ['run_density_calculation']);
    assert.equal(s.main?.span.startLine, lineOf(source, 'function main()'));
    assert.equal(s.entryPointCall?.source, 'main()');
    assert.equal(s.preamble.source.split('\n')[0], 'using ITensors');
    assert.ok(s.preamble.source.endsWith('(This block comment mentions `end` and function main() on purpose.) =#'));
  });

  it('spans each function from its docstring or `function` line to its own `end`', () => {
    for (const fn of [...s.elementFunctions, ...s.runFunctions, s.main!]) {
      assert.equal(source.slice(fn.span.startOffset, fn.span.endOffset), fn.source);
      assert.ok(fn.source.endsWith('\nend'), `${fn.name} ends with its end`);
      assert.equal(source.split('\n')[fn.span.endLine - 1], 'end');
    }
    const site = s.elementFunctions[0]!;
    assert.ok(site.source.startsWith('"""\n    site_Fermion_Hubbard(L)'), 'docstring belongs to the function');
    assert.equal(site.signature, 'function site_Fermion_Hubbard(L::Int)::Vector{<:Index}');
    const ham = s.elementFunctions[1]!;
    assert.equal(ham.span.endLine, lineOf(source, 'function initialstate_random_product') - 2);
    assert.deepEqual(ham.params, ['sites', 'L', 't', 'U', 'V']);
    assert.ok(ham.signature.endsWith('V::Float64)::MPO') && ham.signature.includes('\n'), 'multi-line signature');
    // `state[end - j + 1]` and `["Emp" for _ in 1:L]` must not unbalance the blocks
    const init = s.elementFunctions[2]!;
    assert.ok(init.source.endsWith('    psi0 = MPS(sites, state)\n    return psi0\nend'));
  });

  it('lists the eight element calls of run_density_calculation in order', () => {
    const run = s.runFunctions[0]!;
    assert.deepEqual(run.calls.map((c) => c.name), [
      'site_Fermion_Hubbard',
      'initialstate_random_product',
      'hamiltonian_Hubbard_potential',
      'effector_dmrg_ground_state',
      'observable_density_distributions',
      'hamiltonian_Hubbard_potential',
      'effector_dmrg_ground_state',
      'observable_density_distributions',
    ]);
    assert.equal(run.calls[0]!.statementSource, 'sites = site_Fermion_Hubbard(L)');
    assert.equal(run.calls[0]!.line, lineOf(source, 'sites = site_Fermion_Hubbard(L)'));
    assert.deepEqual(s.main?.callees, ['item_density_data', 'plot_density_distributions']);
    assert.deepEqual(s.elementFunctions.find((f) => f.name === 'item_density_data')!.callees, ['run_density_calculation']);
  });
});

describe('parseScript (julia edge cases)', () => {
  const tricky = [
    'using LinearAlgebra',
    'const NAMES = ["end", "function"]  # end',
    '#= outer #= nested end =# still comment function =#',
    'lattice_bonds(L) = [(i, i + 1) for i in 1:L-1 if i > 0]',
    'site_dims(L::Int)::Vector{Int} where {T} = fill(2, L)',
    '@inline function observable_last(v::AbstractVector{T}) where {T<:Real}',
    '    s = "an end inside $(join(["a", "end"], "-")) a string"',
    "    c = 'e'",
    '    w = v[end] + v[begin] + sum(v[2:end-1])',
    "    m = v' * v",
    '    q = :end',
    '    return w, s, c, m, q',
    'end',
    'mutable struct Params',
    '    L::Int',
    'end',
    'function run_scan(L)',
    '    bonds = lattice_bonds(L)',
    '    g(x) = observable_last(x)',
    '    vals = map(1:3) do k',
    '        observable_last(collect(1.0:k))',
    '    end',
    '    try',
    '        d = site_dims.(bonds)',
    '    catch err',
    '        rethrow()',
    '    end',
    '    x = if L > 2 1 else 2 end',
    '    return vals',
    'end',
    'function main()',
    '    run_scan(4)',
    'end',
    'if abspath(PROGRAM_FILE) == @__FILE__',
    '    main()',
    'end',
  ].join('\n');

  it('counts `end` correctly around strings, comments, symbols, indexing, comprehensions and do-blocks', () => {
    const s = parseScript(tricky, 'julia');
    assert.deepEqual(s.elementFunctions.map((f) => [f.name, f.span.startLine, f.span.endLine]), [
      ['lattice_bonds', 4, 4],
      ['site_dims', 5, 5],
      ['observable_last', 6, 13],
    ]);
    assert.equal(s.elementFunctions[0]!.signature, 'lattice_bonds(L)');
    assert.equal(s.elementFunctions[1]!.signature, 'site_dims(L::Int)::Vector{Int} where {T}');
    assert.ok(s.elementFunctions[2]!.source.startsWith('@inline function observable_last'));
    assert.deepEqual(s.otherFunctions.map((f) => [f.name, f.kind]), [['Params', 'type']]);
    assert.equal(s.runFunctions[0]!.span.endLine, 30);
    assert.equal(s.main?.span.startLine, 31);
    assert.equal(s.entryPointCall?.source, 'if abspath(PROGRAM_FILE) == @__FILE__\n    main()\nend');
  });

  it('takes calls and broadcasts in do-blocks and try, not in nested one-line definitions', () => {
    const run = parseScript(tricky, 'julia').runFunctions[0]!;
    assert.deepEqual(run.calls.map((c) => [c.name, c.line]), [
      ['lattice_bonds', 18],
      ['observable_last', 21],
      ['site_dims', 24],
    ]);
    assert.equal(run.calls[2]!.statementSource, 'd = site_dims.(bonds)');
  });

  it('reports unbalanced blocks and unterminated literals with their line', () => {
    assert.throws(() => parseScript('function site_a(L)\n    for i in 1:L\n        x = i\nend\n', 'julia'), (err: unknown) => {
      assert.ok(err instanceof ScriptSyntaxError);
      assert.match(err.message, /line 1: `function` is never closed by `end`/);
      return true;
    });
    assert.throws(() => parseScript('x = 1\nend\n', 'julia'), /line 2: `end` without a matching block opener/);
    assert.throws(() => parseScript('s = "abc\n', 'julia'), /line 1: unterminated string/);
    assert.throws(() => parseScript('#= never closed\n', 'julia'), /unterminated #= =# comment/);
  });
});
