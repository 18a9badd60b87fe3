import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { execa } from 'execa';
import { buildIntegrationLevels } from '../../lib/harness/integration-levels.js';
import { LEVEL_OK_MARKER } from '../../schemas/script-markers.js';
import { verifyElementFunctionsUnchanged } from '../../lib/harness/variant-check.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';
import { venvPython } from '../../lib/paths.js';
import { IntegrationLevel } from '../../schemas/script-structure.js';
import { fixture } from './fixture-scripts.js';

describe('buildIntegrationLevels (julia, paper example)', () => {
  const { source } = fixture('itensors_hubbard_density.jl');
  const structure = parseScript(source, 'julia');
  const levels = buildIntegrationLevels(structure, 'run_density_calculation');

  it('makes one level per element-call statement, named like the paper', () => {
    assert.equal(levels.length, 8);
    levels.forEach((l) => IntegrationLevel.parse(l));
    assert.deepEqual(levels.map((l) => l.fileName).slice(0, 2), [
      'integrate_run_density_calculation_level-1_integtest.jl',
      'integrate_run_density_calculation_level-2_integtest.jl',
    ]);
    assert.deepEqual(levels[5]!.introduces, ['hamiltonian_Hubbard_potential']);
    assert.deepEqual(levels[7]!.elementFunctionsSoFar, [
      'site_Fermion_Hubbard',
      'initialstate_random_product',
      'hamiltonian_Hubbard_potential',
      'effector_dmrg_ground_state',
      'observable_density_distributions',
    ]);
  });

  it('truncates the run_ function after the k-th call and returns what it assigned', () => {
    const level1 = parseScript(levels[0]!.source, 'julia');
    assert.equal(
      level1.runFunctions[0]!.source.split('\n').slice(2).join('\n'),
      '    sites = site_Fermion_Hubbard(L)\n    return sites\nend',
    );
    const level4 = parseScript(levels[3]!.source, 'julia').runFunctions[0]!;
    assert.ok(level4.source.endsWith(
      '    energy_interacting, psi_interacting = effector_dmrg_ground_state(H_interacting, psi0, nsweeps, maxdim, cutoff)\n' +
        '    return energy_interacting, psi_interacting\nend',
    ));
    assert.deepEqual(level4.calls.map((c) => c.name), levels[3]!.elementFunctionsSoFar.concat([]).slice(0, 4));
  });

  it('keeps the item_ → run_ chain and main parameters, and prints the marker', () => {
    const level = parseScript(levels[2]!.source, 'julia');
    const item = level.elementFunctions.find((f) => f.name === 'item_density_data')!;
    assert.equal(
      item.source,
      'function item_density_data(L, N_up, N_down, t, U, V, U_nonint, nsweeps, maxdim, cutoff)\n' +
        '    return run_density_calculation(L, N_up, N_down, t, U, V, U_nonint, nsweeps, maxdim, cutoff)\nend',
    );
    const main = level.main!.source;
    assert.ok(main.includes('    maxdim = [100, 200, 200, 200, 200, 200, 200, 200, 200, 200]'));
    assert.ok(main.endsWith(
      '    item_density_data(L, N_up, N_down, t, U, V, U_nonint, nsweeps, maxdim, cutoff)\n' +
        `    println("${LEVEL_OK_MARKER} 3")\n    return nothing\nend`,
    ));
    assert.equal(levels[2]!.successMarker, `${LEVEL_OK_MARKER} 3`);
    assert.ok(!main.includes('plot_density_distributions'));
  });

  it('leaves every element function outside the chain byte-identical', () => {
    for (const l of levels) {
      const changed = verifyElementFunctionsUnchanged(structure, parseScript(l.source, 'julia'));
      assert.deepEqual(changed, [
        { name: 'item_density_data', change: 'modified' },
        { name: 'run_density_calculation', change: 'modified' },
      ].filter((d) => l.level < l.totalLevels || d.name !== 'run_density_calculation'));
      assert.ok(l.source.startsWith(structure.preamble.source));
      assert.ok(l.source.endsWith('\nmain()\n'));
    }
  });
});

describe('buildIntegrationLevels (closing blocks, targets)', () => {
  it('closes Julia loops, try and do blocks after a cut inside them', () => {
    const script = [
      'function site_a(L)', '    return collect(1:L)', 'end',
      'function observable_b(x)', '    return sum(x)', 'end',
      'function run_a(L)',
      '    local s::Vector{Int} = site_a(L)',
      '    total = 0.0',
      '    for k in 1:2',
      '        try',
      '            total += observable_b(s)',
      '        catch err',
      '            @warn err',
      '        end',
      '    end',
      '    m = map(1:2) do k',
      '        observable_b(s .* k)',
      '    end',
      '    extra = observable_b(m)',
      '    return total, m, extra',
      'end',
      'function main()', '    r = run_a(3)', '    println(r)', 'end',
      'main()',
    ].join('\n');
    const levels = buildIntegrationLevels(parseScript(script, 'julia'), 'run_a');
    assert.equal(levels.length, 4);
    const run1 = parseScript(levels[0]!.source, 'julia').runFunctions[0]!.source;
    assert.ok(run1.endsWith('    local s::Vector{Int} = site_a(L)\n    return s\nend'));
    const run2 = parseScript(levels[1]!.source, 'julia').runFunctions[0]!.source;
    assert.ok(run2.endsWith(
      '            total += observable_b(s)\n            return total\n' +
        '        catch physvec_error\n            rethrow()\n        end\n    end\nend',
    ));
    const run3 = parseScript(levels[2]!.source, 'julia').runFunctions[0]!.source;
    assert.ok(run3.endsWith('        observable_b(s .* k)\n        return nothing\n    end\nend'));
    const main = parseScript(levels[2]!.source, 'julia').main!.source;
    assert.equal(main, 'function main()\n    run_a(3)\n    println("PHYSVEC_LEVEL_OK 3")\n    return nothing\nend');
    const run4 = parseScript(levels[3]!.source, 'julia').runFunctions[0]!.source;
    assert.ok(run4.endsWith('    extra = observable_b(m)\n    return total, m, extra\nend'), 'the last level is the whole run_');
  });

  it('returns annotated and starred Python targets and refuses unreachable run_ functions', () => {
    const script = [
      'def site_a(L):', '    return list(range(L))',
      'def observable_b(x):', '    return sum(x), len(x)',
      'def run_a(L):',
      '    s: list = site_a(L)',
      '    first, *rest = observable_b(s)',
      '    again = observable_b(rest)',
      '    return first, again',
      'def run_orphan(L):',
      '    return site_a(L)',
      'def main():',
      '    print(run_a(3))',
      'main()',
    ].join('\n');
    const structure = parseScript(script, 'python');
    const levels = buildIntegrationLevels(structure, 'run_a');
    assert.ok(parseScript(levels[0]!.source, 'python').runFunctions[0]!.source.endsWith('    s: list = site_a(L)\n    return s'));
    assert.ok(levels[1]!.source.includes('    first, *rest = observable_b(s)\n    return first, *rest\n'));
    assert.ok(levels[1]!.source.includes('def main():\n    print(run_a(3))\n    print("PHYSVEC_LEVEL_OK 2", flush=True)\n    return\n'));
    assert.throws(() => buildIntegrationLevels(structure, 'run_orphan'), /`run_orphan` is not called from `main`/);
    assert.throws(() => buildIntegrationLevels(structure, 'run_missing'), /no run_ function named `run_missing`.*run_a, run_orphan/);
  });
});

describe('integration levels execute (numpy fixture, venv python)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-levels-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const structure = parseScript(fixture('numpy_tfim_exact.py').source, 'python');
  const levels = buildIntegrationLevels(structure, 'run_tfim_ground_state');

  it('cuts inside `with` and `try` blocks into valid Python', () => {
    assert.equal(levels.length, 6);
    assert.ok(levels[2]!.source.includes('                             J=J, h=h)\n        return H\n\n'));
    assert.ok(levels[4]!.source.includes('        energy, psi = effector_exact_diagonalization(H, psi0)\n        return energy, psi\n    finally:\n        pass\n'));
    assert.ok(levels[0]!.source.includes('    for h in fields:\n        return run_tfim_ground_state(L, J, h)\n'));
  });

  for (const index of [2, 4, 5]) {
    it(`runs level ${index + 1} and prints its marker`, async (t) => {
      const level = levels[index]!;
      const file = path.join(dir, level.fileName);
      writeFileSync(file, level.source);
      const result = await execa(venvPython, [file], { cwd: dir, reject: false, timeout: 120_000 });
      assert.equal(result.exitCode, 0, result.stderr);
      assert.ok(result.stdout.includes(level.successMarker), result.stdout);
      t.diagnostic(result.stdout.trim());
    });
  }

  it('a level whose newly introduced element function is broken fails while earlier ones pass', async () => {
    const broken = structure.source.replace('    energies, vectors = np.linalg.eigh(H)', '    energies, vectors = np.linalg.eigh(H, psi0)');
    assert.notEqual(broken, structure.source);
    const brokenLevels = buildIntegrationLevels(parseScript(broken, 'python'), 'run_tfim_ground_state');
    const outcomes = [];
    for (const level of [brokenLevels[3]!, brokenLevels[4]!]) {
      const file = path.join(dir, `broken_${level.fileName}`);
      writeFileSync(file, level.source);
      const result = await execa(venvPython, [file], { cwd: dir, reject: false, timeout: 120_000 });
      outcomes.push(result.exitCode === 0 && result.stdout.includes(level.successMarker));
    }
    assert.deepEqual(outcomes, [true, false]);
  });
});
