// Serverless checks of the validation's building blocks on the real suite: every mutant description is
// valid and names a function the mutant really changed; the traceback locator names element functions;
// the verdict of a row needs both the right stage and the right function.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { loadDataset } from '../../lib/tasks/dataset.js';
import { repoRoot } from '../../lib/paths.js';
import { parseScript } from '../../lib/script-analysis/index.js';
import { checkStructure } from '../../lib/script-analysis/check-structure.js';
import { roleOf } from '../../lib/script-analysis/categories.js';
import { parseTruth } from '../../lib/tasks/truth.js';
import { isFile } from '../../lib/tasks/layout.js';
import { allFunctions } from '../../lib/script-analysis/check-structure.js';
import { failingFunction } from '../../activities/pipeline/programming.js';
import { checkOwnSetting } from '../../activities/validation/own-setting.js';
import { suiteEntries } from '../../cli/runs/validation-suite.js';
import { applyEdits, loadMutant } from '../../lib/tasks/source-edits.js';
import { BadInputError } from '../../lib/errors.js';
import { mkdtemp, writeFile, cp } from 'node:fs/promises';
import os from 'node:os';
import { rowOf, summarizeRows } from '../../cli/runs/validation-table.js';
import type { ValidationSummary } from '../../schemas/validation.js';
import type { RunDigest } from '../../schemas/pipeline.js';

const sourcesOf = (text: string) => new Map(allFunctions(parseScript(text, 'python')).map((f) => [f.name, f.source]));

test('the suite: every reference has a row, every mutant description is valid and names the one function it changed', async () => {
  const dataset = await loadDataset(path.join(repoRoot, 'data'));
  const { entries } = await suiteEntries(dataset);
  const refs = entries.filter((e) => e.kind === 'reference');
  const mutants = entries.filter((e) => e.kind === 'mutant');
  assert.ok(refs.length >= 8, `references found: ${refs.length}`);
  assert.ok(mutants.length >= 6, `mutants found: ${mutants.length}`);
  for (const m of mutants) {
    assert.equal(m.problem, undefined, `${m.taskId}/${m.script}: ${m.problem}`);
    const ref = sourcesOf(await readFile(path.join(repoRoot, m.input.referenceDir, 'solution.py'), 'utf8'));
    const mutant = await loadMutant(path.join(repoRoot, m.input.referenceDir), m.script);
    const mut = sourcesOf(mutant.source);
    assert.deepEqual(m.input.edits, mutant.meta.edits, 'the workflow input carries the edits');
    const differing = [...new Set([...ref.keys(), ...mut.keys()])].filter((n) => ref.get(n) !== mut.get(n));
    assert.deepEqual(differing, [m.expected.faultyFunction], `${m.taskId}/${m.script} differs from its reference in ${differing.join(', ')}`);
  }
  // --only selects by `<task>/<script>` substring; --no-mutants drops the mutants.
  const only = await suiteEntries(dataset, { only: ['heisenberg_chain/ref', '/pauli_zz'] });
  assert.deepEqual(only.entries.map((e) => `${e.taskId}/${e.script}`), ['task_dmrg_heisenberg_chain/reference', 'task_dmrg_heisenberg_chain/pauli_zz']);
  const noMutants = await suiteEntries(dataset, { mutants: false });
  assert.ok(noMutants.entries.every((e) => e.kind === 'reference'));
});

test('the suite has the shape issue 6 asks: 16+ tasks, 4+ per topic, each complete; 3+ mutants per topic in element functions', async () => {
  const dataset = await loadDataset(path.join(repoRoot, 'data'));
  const tasks = dataset.tasks.filter((t) => t.topicFolder !== 'smoke');
  assert.ok(tasks.length >= 16, `tasks: ${tasks.length}`);
  const kinds = { symmetry: 0, small: 0, analytic: 0 };
  for (const topic of ['dmrg', 'nqs', 'qsim', 'dft'] as const) {
    const ofTopic = tasks.filter((t) => t.topic === topic);
    assert.ok(ofTopic.length >= 4, `${topic}: ${ofTopic.length} tasks`);
  }
  for (const t of tasks) {
    const at = `${t.id}`;
    assert.deepEqual(t.problems.filter((p) => p.severity === 'error'), [], at);
    assert.ok(t.digest.found && t.reference.found, `${at}: digest and reference exist`);
    assert.ok(t.rubric.normCheck?.ok, `${at}: rubric NormCheck`);
    assert.ok(t.task.scaled, `${at}: scaled says how the task departs from the paper (reason, parameters)`);
    const lc = t.task.LimitingCases ?? [];
    const cc = t.task.ConvergenceCases ?? [];
    assert.ok(lc.length > 0 && cc.length > 0, `${at}: limiting ${lc.length}, convergence ${cc.length}`);
    const dir = path.dirname(t.reference.path!);
    // The Author's scripts must pass the structure check before any test; so must ours.
    const structure = checkStructure(parseScript(await readFile(t.reference.path!, 'utf8'), 'python'));
    assert.deepEqual(structure.map((p) => p.message), [], `${at}: the reference passes the structure check`);
    const cases = [...lc.map((c, k) => ({ c, file: `limiting/${k}.main.py` })), ...(t.task.ScientificResults ?? []).map((c, k) => ({ c, file: `scientific/${k}.main.py` }))];
    for (const { c, file } of cases) {
      assert.equal(parseTruth(c.truth).kind, 'numeric', `${at} ${file}: a numeric truth with a tolerance (${c.truth})`);
      assert.ok(await isFile(path.join(dir, file)), `${at}: ${file} exists`);
      if (/symmetr/i.test(c.content)) kinds.symmetry++;
      if (/analytic|closed form|free.fermion|Bethe|exact(ly)? solvable|tiny|two (spins|sites)|small/i.test(c.content)) kinds.analytic++;
      if (/\b(L|N)\s*=\s*[1-4]\b|two (spins|sites|qubits)|single|dimer|tiny|small/i.test(c.content)) kinds.small++;
    }
    for (const k of cc.keys()) {
      assert.ok(await isFile(path.join(dir, `convergence/${k}.main.py`)) && (await isFile(path.join(dir, `convergence/${k}.schedule.json`))), `${at}: convergence ${k} main and schedule`);
    }
  }
  // LimitingCases of all three kinds across the suite (small sizes solved exactly, symmetries, analytic regimes).
  assert.ok(kinds.symmetry > 0 && kinds.small > 0 && kinds.analytic > 0, JSON.stringify(kinds));

  const { entries } = await suiteEntries(dataset);
  for (const topic of ['dmrg', 'nqs', 'qsim', 'dft']) {
    const mutants = entries.filter((e) => e.kind === 'mutant' && e.topic === topic);
    const inElements = mutants.filter((m) => roleOf(m.expected.faultyFunction ?? '').kind === 'element');
    assert.ok(inElements.length >= 3, `${topic}: ${inElements.length} mutants with the fault in an element function`);
    assert.deepEqual([...new Set(mutants.map((m) => m.expected.stage))].sort(), ['programming', 'scientific'], `${topic}: mutants for both stages`);
  }
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

test('source edits: applied in order; an old text found 0 or 2 times is bad input naming file, field and fix', () => {
  const origin = { file: 'mutants/m.json', field: 'edits' };
  assert.equal(applyEdits('a = 1\nb = 2\n', [{ old: 'a = 1', new: 'a = $1' }, { old: 'b = 2', new: 'b = a' }], origin, 'solution.py'), 'a = $1\nb = a\n');
  assert.throws(() => applyEdits('x = 1\n', [{ old: 'y', new: 'z' }], origin, 'solution.py'), (e: unknown) => e instanceof BadInputError && e.fieldPath === 'edits.0.old' && /occurs 0 times in solution\.py.*update it/.test(e.message));
  assert.throws(() => applyEdits('x\nx\n', [{ old: 'x', new: 'z' }], origin, 'solution.py'), /mutants\/m\.json: edits\.0\.old: occurs 2 times.*unique/);
});

test('a mutant whose edit no longer fits its solution is a red row that says why, not a crash', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'physvec-mutant-'));
  await cp(path.join(repoRoot, 'data'), path.join(dir, 'data'), { recursive: true, filter: (src) => !src.includes(`${path.sep}cassettes`) && !src.includes(`${path.sep}state`) });
  await cp(path.join(repoRoot, 'rubrics'), path.join(dir, 'rubrics'), { recursive: true });
  const meta = path.join(dir, 'data/references/task_dmrg_heisenberg_chain/mutants/pauli_zz.json');
  const m = JSON.parse(await readFile(meta, 'utf8'));
  m.edits[0].old = 'this text is not in the solution';
  await writeFile(meta, JSON.stringify(m));
  const { entries } = await suiteEntries(await loadDataset(path.join(dir, 'data')), { only: ['heisenberg_chain/pauli_zz'] });
  assert.equal(entries.length, 1);
  assert.match(entries[0]!.problem ?? '', /data\/references\/task_dmrg_heisenberg_chain\/mutants\/pauli_zz\.json: edits\.0\.old: occurs 0 times/);
});
