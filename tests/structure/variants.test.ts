import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replaceMain } from '../../lib/harness/replace-main.js';
import { verifyElementFunctionsUnchanged } from '../../lib/harness/variant-check.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';
import { fixture } from './fixture-scripts.js';

// The limiting-case main of the supplemental example (L=2, U=0, no trap: E0 = -2).
const limitingMain = `function main()
    # --- Limiting case parameters ---
    L = 2
    N_up = 1
    N_down = 1
    t = 1.0
    U = 0.0
    A = 0.0
    V = 4 * A / L^2
    nsweeps = 10
    maxdim = [10, 20]
    cutoff = [1E-8, 1E-10]
    sites = site_Fermion_Hubbard(L)
    psi0 = initialstate_random_product(sites, L, N_up, N_down)
    H = hamiltonian_Hubbard_potential(sites, L, t, U, V)
    energy, psi = effector_dmrg_ground_state(H, psi0, nsweeps, maxdim, cutoff)
    println(energy)
end`;

describe('replaceMain', () => {
  const { source } = fixture('itensors_hubbard_density.jl');
  const structure = parseScript(source, 'julia');

  it('swaps only main and keeps every other byte', () => {
    const variant = replaceMain(structure, limitingMain);
    const main = structure.main!;
    assert.equal(variant, source.slice(0, main.span.startOffset) + limitingMain + source.slice(main.span.endOffset));
    const parsed = parseScript(variant, 'julia');
    assert.deepEqual(verifyElementFunctionsUnchanged(structure, parsed), []);
    assert.equal(parsed.main!.source, limitingMain);
  });

  it('dedents an indented main and drops its own entry call', () => {
    const indented = `${limitingMain.split('\n').map((l) => `    ${l}`).join('\n')}\n    main()\n`;
    const variant = replaceMain(structure, indented);
    assert.equal(parseScript(variant, 'julia').main!.source, limitingMain);
    assert.equal(variant.match(/^main\(\)$/gm)?.length, 1);
  });

  it('refuses new code that defines more than main', () => {
    assert.throws(() => replaceMain(structure, `${limitingMain}\nfunction helper_x()\n    1\nend`), /may only rewrite main.*`helper_x`/);
    assert.throws(() => replaceMain(structure, `using LinearAlgebra\n${limitingMain}`), /move this top-level code inside main: using LinearAlgebra/);
    assert.throws(() => replaceMain(structure, 'function start()\nend'), /must define a function named `main`/);
  });

  it('adds main and an entry call to a Python script that had neither', () => {
    const script = 'import math\n\ndef site_a(L):\n    return L\n\ndef run_a(L):\n    return site_a(L)\n';
    const variant = replaceMain(parseScript(script, 'python'), 'def main():\n    print(run_a(2))');
    assert.equal(variant, `${script.trimEnd()}\n\n\ndef main():\n    print(run_a(2))\n\n\nif __name__ == "__main__":\n    main()\n`);
  });
});

describe('verifyElementFunctionsUnchanged', () => {
  const { source } = fixture('tenpy_dmrg_hubbard.py');
  const original = parseScript(source, 'python');

  it('ignores line endings and trailing blanks', () => {
    const reformatted = source.replace(/\n/g, '  \r\n');
    assert.deepEqual(verifyElementFunctionsUnchanged(original, parseScript(reformatted, 'python')), []);
  });

  it('reports element functions a variant modified, removed or added', () => {
    const tampered = source
      .replace('"max_sweeps": max_sweeps,', '"max_sweeps": 2 * max_sweeps,')
      .replace(/def plot_density_distributions[\s\S]*?return filename\n/, '')
      .replace('def main():', 'def observable_total_density(psi):\n    return sum(psi.expectation_value("Ntot"))\n\n\ndef main():');
    const diff = verifyElementFunctionsUnchanged(original, parseScript(tampered, 'python'));
    assert.deepEqual(diff, [
      { name: 'effector_dmrg_ground_state', change: 'modified' },
      { name: 'plot_density_distributions', change: 'removed' },
      { name: 'observable_total_density', change: 'added' },
    ]);
  });

  it('treats a changed run_ function as illegal too, but not a changed main', () => {
    const variant = source
      .replace('    n_up, n_down = observable_spin_densities(psi)\n', '    n_up, n_down = observable_spin_densities(psi0)\n')
      .replace('    L = 8\n', '    L = 2\n');
    assert.deepEqual(verifyElementFunctionsUnchanged(original, parseScript(variant, 'python')), [
      { name: 'run_density_calculation', change: 'modified' },
    ]);
  });
});
