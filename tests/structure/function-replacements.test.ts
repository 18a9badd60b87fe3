import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyFunctionReplacements } from '../../lib/harness/function-replacements.js';
import { verifyElementFunctionsUnchanged } from '../../lib/harness/variant-check.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';
import { fixture } from './fixture-scripts.js';

describe('applyFunctionReplacements', () => {
  const { source } = fixture('itensors_hubbard_density.jl');
  const structure = parseScript(source, 'julia');
  const fixedObservable = `function observable_density_distributions(psi::MPS, L::Int)::Tuple{Vector{Float64},Vector{Float64}}
    n_up = expect(psi, "Nup"; sites=1:L)
    n_down = expect(psi, "Ndn"; sites=1:L)
    return n_up, n_down
end`;

  it('rewrites one function and leaves every other byte identical', () => {
    const old = structure.elementFunctions.find((f) => f.name === 'observable_density_distributions')!;
    const result = applyFunctionReplacements(source, structure, [{ name: old.name, newSource: fixedObservable }]);
    assert.equal(result, source.slice(0, old.span.startOffset) + fixedObservable + source.slice(old.span.endOffset));
    const diff = verifyElementFunctionsUnchanged(structure, parseScript(result, 'julia'));
    assert.deepEqual(diff, [{ name: 'observable_density_distributions', change: 'modified' }]);
  });

  it('applies several replacements at once, dedenting LLM-indented code; a docstring goes with its function', () => {
    const newSite = '    function site_Fermion_Hubbard(L::Int)\n        return siteinds("Electron", L; conserve_qns=true)\n    end\n';
    const result = applyFunctionReplacements(source, structure, [
      { name: 'observable_density_distributions', newSource: fixedObservable },
      { name: 'site_Fermion_Hubbard', newSource: newSite },
    ]);
    const site = structure.elementFunctions.find((f) => f.name === 'site_Fermion_Hubbard')!;
    const obs = structure.elementFunctions.find((f) => f.name === 'observable_density_distributions')!;
    const dedented = 'function site_Fermion_Hubbard(L::Int)\n    return siteinds("Electron", L; conserve_qns=true)\nend';
    assert.equal(
      result,
      source.slice(0, site.span.startOffset) + dedented + source.slice(site.span.endOffset, obs.span.startOffset) + fixedObservable + source.slice(obs.span.endOffset),
    );
    const parsed = parseScript(result, 'julia');
    assert.deepEqual(verifyElementFunctionsUnchanged(structure, parsed).map((d) => d.name), ['site_Fermion_Hubbard', 'observable_density_distributions']);
  });

  it('inserts a function the script lacks right before main', () => {
    const helper = 'function helper_center(L)\n    return (L + 1) / 2\nend';
    const result = applyFunctionReplacements(source, structure, [{ name: 'helper_center', newSource: helper }]);
    const at = structure.main!.span.startOffset;
    assert.equal(result, `${source.slice(0, at)}${helper}\n\n\n${source.slice(at)}`);
  });

  it('works on Python the same way', () => {
    const py = fixture('numpy_tfim_exact.py').source;
    const s = parseScript(py, 'python');
    const replaced = applyFunctionReplacements(py, s, [
      { name: 'initialstate_all_up', newSource: 'def initialstate_all_up(L: int) -> np.ndarray:\n    return np.eye(2**L)[0]' },
    ]);
    const parsed = parseScript(replaced, 'python');
    assert.equal(parsed.elementFunctions.find((f) => f.name === 'initialstate_all_up')!.source, 'def initialstate_all_up(L: int) -> np.ndarray:\n    return np.eye(2**L)[0]');
    assert.equal(replaced.length - py.length, parsed.elementFunctions.find((f) => f.name === 'initialstate_all_up')!.source.length - s.elementFunctions.find((f) => f.name === 'initialstate_all_up')!.source.length);
  });

  it('refuses ambiguous or mismatched replacements', () => {
    assert.throws(
      () => applyFunctionReplacements(source, structure, [{ name: 'site_Fermion_Hubbard', newSource: 'function site_other(L)\n    L\nend' }]),
      /does not define `site_Fermion_Hubbard` \(it defines site_other\)/,
    );
    assert.throws(
      () => applyFunctionReplacements(source, structure, [{ name: 'site_Fermion_Hubbard', newSource: 'function site_Fermion_Hubbard(L)\n    L\nend\nfunction main()\nend' }]),
      /also redefines `main`/,
    );
    assert.throws(
      () => applyFunctionReplacements(source, structure, [{ name: 'main', newSource: 'function main()\n    1\nend' }, { name: 'main', newSource: 'function main()\n    2\nend' }]),
      /`main` is replaced twice/,
    );
    assert.throws(() => applyFunctionReplacements(`${source}\n`, structure, []), /parsed from a different text/);
    assert.throws(
      () => applyFunctionReplacements(source, structure, [{ name: 'site_Fermion_Hubbard', newSource: 'function site_Fermion_Hubbard(L)\n    for i in 1:L\nend' }]),
      /replacement for site_Fermion_Hubbard: line 1: `function` is never closed/,
    );
    const dup = 'def site_a():\n    return 1\n\ndef site_a():\n    return 2\n';
    assert.throws(
      () => applyFunctionReplacements(dup, parseScript(dup, 'python'), [{ name: 'site_a', newSource: 'def site_a():\n    return 3' }]),
      /`site_a` is defined 2 times \(lines 1, 4\)/,
    );
  });
});
