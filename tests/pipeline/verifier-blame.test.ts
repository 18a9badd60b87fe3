// Blame by traceback frames, on harnesses and levels run for real with the venv's Python:
// a unit error raised deep inside a library call names the element function that made the call (not
// the library's frame); a harness that calls a background function it does not contain is the
// harness's fault (undetermined), whatever the file names; an integration level of a run_ function
// does not run main's earlier run_ calls, and a failed level names the function its traceback is in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { buildIntegrationLevels } from '../../lib/harness/integration-levels.js';
import { buildUnitHarness } from '../../lib/harness/unit-harness.js';
import { judgeUnitRun } from '../../lib/harness/unit-verdict.js';
import { tracebackFrames } from '../../lib/harness/traceback.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';
import { failingFunction, lastError } from '../../activities/pipeline/programming.js';
import { repoRoot, venvPython } from '../../lib/paths.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-blame-'));

async function run(fileName: string, source: string) {
  writeFileSync(path.join(dir, fileName), source);
  const r = await execa(venvPython, [fileName], { cwd: dir, reject: false, timeout: 120_000 });
  return { exitCode: r.exitCode ?? null, timedOut: false, durationMs: 0, stderrTail: r.stderr, stdout: r.stdout };
}

// Two run_ functions; run_atom's effector is broken (a numpy call with inconsistent shapes).
const SCRIPT = `import numpy as np


def hamiltonian_pair(J):
    return J * np.array([[0.25, 0.0], [0.0, -0.75]])


def effector_lowest(H):
    # Broken: diagonalises a non-square slice; numpy raises in its own Python frames.
    return float(np.linalg.eigvalsh(H[:, :1])[0])


def observable_energy(e):
    return e


def run_atom(J):
    H = hamiltonian_pair(J)
    e = effector_lowest(H)
    return observable_energy(e)


def run_pair(J):
    H = hamiltonian_pair(J)
    w = np.linalg.eigvalsh(H)
    return observable_energy(float(w[0]))


def main():
    J = 1.0
    atom = run_atom(J)
    pair = run_pair(J)
    print("PHYSVEC_RESULT", pair)


if __name__ == "__main__":
    main()
`;
const structure = parseScript(SCRIPT, 'python');
const elements = new Set(structure.elementFunctions.map((f) => f.name));
const BACKGROUND = [{ category: 'hamiltonian' as const, source: 'def hamiltonian_verifier_spin(J):\n    return J * np.eye(2)\n' }];

test('a unit error raised inside a library call names the element function, not the library frame', async () => {
  const harness = buildUnitHarness({ structure, target: 'effector_lowest', background: BACKGROUND, entryPoint: 'def main():\n    print(effector_lowest(hamiltonian_verifier_spin(1.0)))\n', language: 'python' });
  const r = await run(harness.fileName, harness.source);
  assert.notEqual(r.exitCode, 0);
  const frames = tracebackFrames(r.stderrTail);
  assert.ok(frames.length >= 3, 'the traceback reaches into numpy');
  assert.notEqual(failingFunction(r.stderrTail), 'effector_lowest', 'the innermost frame of all is not the element function (here: one of numpy)');
  const v = judgeUnitRun({ target: 'effector_lowest', harness, entryCallsTarget: true, elementFunctions: elements, run: r });
  assert.equal(v.judge, 'wrong');
  assert.equal(v.blame, 'effector_lowest');
  assert.match(v.errors, /^failed in effector_lowest:\n/);
  assert.match(v.errors, /LinAlgError|square/, 'the traceback\'s own last lines are kept');
  assert.ok(v.errors.split('\n').length > 2, 'several whole lines, not a 500-character cut');
});

test('a harness calling a background function it does not contain is undetermined (the test writer\'s fault)', async () => {
  const harness = buildUnitHarness({ structure, target: 'hamiltonian_pair', background: BACKGROUND, entryPoint: 'def main():\n    H = hamiltonian_pair(effector_verifier_scf(1.0))\n    print(H)\n', language: 'python' });
  const r = await run(harness.fileName, harness.source);
  assert.match(r.stderrTail, /NameError: name 'effector_verifier_scf' is not defined/);
  const v = judgeUnitRun({ target: 'hamiltonian_pair', harness, entryCallsTarget: true, elementFunctions: elements, run: r });
  assert.equal(v.judge, 'undetermined');
  assert.match(v.errors, /the test harness failed in the entry point \(main\), not in hamiltonian_pair/);
  // A TypeError of a bad call made by a background function is the harness's too.
  const bad = buildUnitHarness({ structure, target: 'hamiltonian_pair', background: BACKGROUND, entryPoint: 'def main():\n    print(hamiltonian_pair(hamiltonian_verifier_spin()))\n', language: 'python' });
  const r2 = await run(bad.fileName, bad.source);
  assert.equal(judgeUnitRun({ target: 'hamiltonian_pair', harness: bad, entryCallsTarget: true, elementFunctions: elements, run: r2 }).judge, 'undetermined');
  // An entry point that runs fine but never calls the function tests nothing.
  const idle = buildUnitHarness({ structure, target: 'hamiltonian_pair', background: BACKGROUND, entryPoint: 'def main():\n    print(1)\n', language: 'python' });
  const r3 = await run(idle.fileName, idle.source);
  assert.equal(r3.exitCode, 0);
  assert.equal(judgeUnitRun({ target: 'hamiltonian_pair', harness: idle, entryCallsTarget: false, elementFunctions: elements, run: r3 }).judge, 'undetermined');
});

test("an integration level of a run_ function does not run main's earlier run_ calls; a failed level names its traceback's function", async () => {
  const pairLevels = buildIntegrationLevels(structure, 'run_pair');
  assert.ok(!/atom = run_atom\(J\)/.test(pairLevels[0]!.source), "main's call of run_atom is dropped in run_pair's levels");
  for (const level of pairLevels) {
    const r = await run(level.fileName, level.source);
    assert.equal(r.exitCode, 0, `${level.fileName} is not polluted by run_atom's fault:\n${r.stderrTail}`);
    assert.match(r.stdout, new RegExp(level.successMarker));
  }
  const atomLevels = buildIntegrationLevels(structure, 'run_atom');
  const second = atomLevels[1]!;
  assert.deepEqual(second.introduces, ['effector_lowest']);
  const r = await run(second.fileName, second.source);
  assert.notEqual(r.exitCode, 0);
  assert.equal(failingFunction(r.stderrTail, elements), 'effector_lowest');
  assert.ok(lastError(r.stderrTail).split('\n').length > 2);
  // main's earlier statement is kept when the level needs what it assigned.
  const needs = parseScript(SCRIPT.replace('    pair = run_pair(J)', '    pair = run_pair(J + atom)'), 'python');
  assert.match(buildIntegrationLevels(needs, 'run_pair')[0]!.source, /atom = run_atom\(J\)/);
});

test("an integration level runs only what its run_ function depends on: main's plotting and other runs are cut (issue 27.3)", async () => {
  // The Trotter reference with its exact evolution broken: main runs run_trotter_dynamics and
  // run_exact_dynamics (kept before only because the plotting call uses their results) before run_trotter_at_time.
  const solution = readFileSync(path.join(repoRoot, 'data/references/task_qsim_trotter_domain_wall/solution.py'), 'utf8');
  const broken = solution.replace('psi0 = Statevector(initial).data', 'psi0 = Statevector(initial).data[1:]');
  assert.notEqual(broken, solution);
  const trotter = parseScript(broken, 'python');
  const at = buildIntegrationLevels(trotter, 'run_trotter_at_time');
  const main = at[0]!.source.slice(at[0]!.source.indexOf('def main'));
  for (const cut of ['run_exact_dynamics(', 'run_trotter_dynamics(', 'plot_magnetisation(', 'print("PHYSVEC_RESULT']) assert.ok(!main.includes(cut), `${cut} is cut from run_trotter_at_time's levels:\n${main}`);
  assert.match(main, /steps_per_unit_time = 10/, 'what the call needs is kept');
  const first = await run(at[0]!.fileName, at[0]!.source);
  assert.equal(first.exitCode, 0, `run_trotter_at_time's level-1 is not polluted by the exact evolution's fault:\n${first.stderrTail}`);
  // The run_ function that does use the broken effector fails at the level that introduces it, and names it.
  const exact = buildIntegrationLevels(trotter, 'run_exact_dynamics');
  const level = exact.find((l) => l.introduces.includes('effector_exact_evolution'))!;
  const r = await run(level.fileName, level.source);
  assert.notEqual(r.exitCode, 0);
  assert.equal(failingFunction(r.stderrTail, new Set(trotter.elementFunctions.map((f) => f.name))), 'effector_exact_evolution');
});

test('tracebackFrames reads Julia stack traces innermost last', () => {
  const jl = [
    'ERROR: LoadError: UndefVarError: `effector_verifier_dmrg` not defined',
    'Stacktrace:',
    ' [1] effector_dmrg(H::Int64)',
    '   @ Main /tmp/run/verify_effector_dmrg_unittest.jl:31',
    ' [2] main()',
    '   @ Main /tmp/run/verify_effector_dmrg_unittest.jl:40',
    ' [3] top-level scope',
    '   @ /tmp/run/verify_effector_dmrg_unittest.jl:44',
  ].join('\n');
  assert.deepEqual(tracebackFrames(jl).map((f) => [f.fn, f.line]), [['<module>', 44], ['main', 40], ['effector_dmrg', 31]]);
  assert.equal(failingFunction(jl, new Set(['effector_dmrg'])), 'effector_dmrg');
});
