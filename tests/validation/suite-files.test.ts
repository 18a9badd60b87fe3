// Serverless checks of the validation's building blocks on the real suite: every mutant description is
// valid and names a function the mutant really changed; the traceback locator names element functions;
// the verdict of a row needs both the right stage and the right function.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { loadDataset } from '../../lib/tasks/dataset.js';
import { repoRoot } from '../../lib/paths.js';
import { parseScript } from '../../runners/structure/index.js';
import { allFunctions } from '../../runners/structure/check-structure.js';
import { failingFunction } from '../../activities/pipeline/programming.js';
import { checkOwnSetting } from '../../activities/validation/own-setting.js';
import { suiteEntries } from '../../cli/runs/validation-suite.js';
import { rowOf, summarizeRows } from '../../cli/runs/validation-table.js';
import type { ValidationSummary } from '../../schemas/validation.js';
import type { RunDigest } from '../../schemas/pipeline.js';

const sources = async (file: string) => new Map(allFunctions(parseScript(await readFile(file, 'utf8'), 'python')).map((f) => [f.name, f.source]));

test('the suite: every reference has a row, every mutant description is valid and names the one function it changed', async () => {
  const dataset = await loadDataset(path.join(repoRoot, 'data'));
  const { entries } = await suiteEntries(dataset);
  const refs = entries.filter((e) => e.kind === 'reference');
  const mutants = entries.filter((e) => e.kind === 'mutant');
  assert.ok(refs.length >= 8, `references found: ${refs.length}`);
  assert.ok(mutants.length >= 6, `mutants found: ${mutants.length}`);
  for (const m of mutants) {
    assert.equal(m.problem, undefined, `${m.taskId}/${m.script}: ${m.problem}`);
    const ref = await sources(path.join(repoRoot, m.input.referenceDir, 'solution.py'));
    const mut = await sources(path.join(repoRoot, m.input.scriptPath));
    const differing = [...new Set([...ref.keys(), ...mut.keys()])].filter((n) => ref.get(n) !== mut.get(n));
    assert.deepEqual(differing, [m.expected.faultyFunction], `${m.taskId}/${m.script} differs from its reference in ${differing.join(', ')}`);
  }
  // --only selects by `<task>/<script>` substring; --no-mutants drops the mutants.
  const only = await suiteEntries(dataset, { only: ['heisenberg_chain/ref', '/pauli_zz'] });
  assert.deepEqual(only.entries.map((e) => `${e.taskId}/${e.script}`), ['task_dmrg_heisenberg_chain/reference', 'task_dmrg_heisenberg_chain/pauli_zz']);
  const noMutants = await suiteEntries(dataset, { mutants: false });
  assert.ok(noMutants.entries.every((e) => e.kind === 'reference'));
});

test('failingFunction: the innermost frame, or the innermost among given names (library frames below skipped)', () => {
  const tb = [
    'Traceback (most recent call last):',
    '  File "/work/main.py", line 90, in <module>',
    '  File "/work/main.py", line 80, in main',
    '  File "/work/main.py", line 40, in run_chain',
    '  File "/work/main.py", line 12, in observable_string',
    '  File "/venv/lib/tenpy/networks/mps.py", line 1200, in correlation_function',
    "TypeError: correlation_function() got an unexpected keyword argument 'opstring'",
  ].join('\n');
  assert.equal(failingFunction(tb), 'correlation_function');
  assert.equal(failingFunction(tb, new Set(['observable_string', 'hamiltonian_x'])), 'observable_string');
  assert.equal(failingFunction(tb, new Set(['nowhere'])), undefined);
});

test('own setting: the full run\'s named value must agree with the converged value within the criterion', () => {
  const run = (results: unknown[], exitCode = 0): RunDigest => ({ id: 'full', exitCode, timedOut: false, durationMs: 1, stdoutTail: '', stderrTail: '', results, files: [], missingProtections: [] });
  const criteria = 'The relative error tolerance is +/- 1e-4.';
  assert.equal(checkOwnSetting({ monitor: 'energy', criteria, converged: -10, run: run([{ name: 'energy', value: -10.0005 }, 3]) }).pass, true);
  const off = checkOwnSetting({ monitor: 'energy', criteria, converged: -10, run: run([{ name: 'energy', value: -9.9 }]) });
  assert.equal(off.pass, false);
  assert.deepEqual(off.own, [-9.9]);
  assert.equal(checkOwnSetting({ monitor: 'energy', criteria, converged: -10, run: run([-10]) }).pass, false, 'an unnamed value is not the monitored one');
  assert.equal(checkOwnSetting({ monitor: 'energy', criteria, converged: -10, run: run([{ name: 'energy', value: -10 }], 1) }).pass, false);
});

test('a mutant row is caught only at the expected stage with the expected function; a reference only when it passes', () => {
  const summary = (s: Partial<ValidationSummary>): ValidationSummary => ({
    task: 't', script: 's', executable: true, fullRunMs: 500, structureProblems: [], assertions: [], passed: 1, total: 1, convergence: [], stage: 'passed', wallMs: 1000, ...s,
  });
  const mutant = { taskId: 't', topic: 'dmrg', profile: 'tenpy', script: 'm', kind: 'mutant' as const, input: { taskFile: 'a', scriptPath: 'b', referenceDir: 'c' }, expected: { stage: 'scientific' as const, faultyFunction: 'hamiltonian_x' } };
  assert.equal(rowOf(mutant, { summary: summary({ stage: 'scientific', faultyFunction: 'hamiltonian_x' }) }).ok, true);
  assert.equal(rowOf(mutant, { summary: summary({ stage: 'scientific', faultyFunction: 'lattice_y' }) }).ok, false);
  assert.equal(rowOf(mutant, { summary: summary({ stage: 'programming', faultyFunction: 'hamiltonian_x' }) }).ok, false);
  assert.equal(rowOf(mutant, { summary: summary({ stage: 'scientific' }) }).ok, false, 'not localised is not caught');
  assert.equal(rowOf(mutant, { error: 'workflow failed' }).ok, false);
  const reference = { ...mutant, script: 'reference', kind: 'reference' as const, expected: { stage: 'passed' as const } };
  const green = rowOf(reference, { summary: summary({}) });
  const red = rowOf(reference, { summary: summary({ stage: 'scientific', passed: 0, assertions: [{ case: 'limiting:0', judge: 'wrong', reason: 'off' }] }) });
  assert.deepEqual([green.ok, red.ok, red.failedCases], [true, false, ['limiting:0']]);
  assert.deepEqual(summarizeRows([green, red], 5), { references: 2, green: 1, mutants: 0, caught: 0, wallMs: 5, ok: false });
});
