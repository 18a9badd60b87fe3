import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { BadInputError } from '../../lib/errors.js';
import { loadDataset } from '../../lib/tasks/dataset.js';
import { inspectTaskFile, loadTaskFile } from '../../lib/tasks/load-task.js';
import { canonicalTopic, topicNames } from '../../lib/tasks/topics.js';
import { LoadedTask } from '../../schemas/task.js';
import { DATASET, RUBRIC_7_2, TASK_7_2, copyDataset, datasetMissing, editJson, writeJson } from './dataset-fixture.js';

test('topic aliases map both ways', () => {
  assert.equal(canonicalTopic('nnwf'), 'nqs');
  assert.equal(canonicalTopic('QCMB'), 'qsim');
  assert.equal(canonicalTopic('dft'), 'dft');
  assert.equal(canonicalTopic('dft_qc'), 'dft');
  assert.equal(canonicalTopic('toString'), undefined);
  assert.deepEqual(topicNames('nqs').sort(), ['nnwf', 'nqs']);
  assert.deepEqual(topicNames('dft').sort(), ['dft', 'dft_qc']);
  assert.deepEqual(topicNames('qsim').sort(), ['qcmb', 'qsim']);
});

test('the published dataset loads without a single problem', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const ds = await loadDataset(DATASET);
  assert.equal(ds.layout, 'qmp-bench');
  assert.deepEqual(ds.problems, []);
  assert.equal(ds.taskFiles.length, 79);
  const count = (topic: string) => ds.tasks.filter((x) => x.topic === topic).length;
  assert.deepEqual([count('dmrg'), count('nqs'), count('qsim'), count('dft')], [35, 18, 20, 6]);
  assert.deepEqual([...new Set(ds.tasks.filter((x) => x.topic === 'dft').map((x) => x.topicFolder))], ['dft_qc']);
  // dft_qc: no TeX, but the article's protocol under the authors' naming (jacs.5b10819 → ja5b10819.json).
  assert.ok(ds.tasks.filter((x) => x.topic === 'dft').every((x) => x.protocol.found && path.basename(x.protocol.path!) === 'ja5b10819.json' && x.protocol.calculations === 4));
  assert.ok(ds.tasks.filter((x) => x.topic !== 'dft').every((x) => x.protocol.path === null));
  assert.deepEqual([...new Set(ds.tasks.filter((x) => x.topic === 'nqs').map((x) => x.topicFolder))], ['nnwf']);
  // Every dmrg task has its TeX source; no nnwf/qcmb source was published.
  assert.ok(ds.tasks.filter((x) => x.topic === 'dmrg').every((x) => x.source.found));
  assert.ok(ds.tasks.filter((x) => x.topic !== 'dmrg').every((x) => !x.source.found && x.source.path !== null && x.source.tried!.length > 0));
  const withRubric = ds.tasks.filter((x) => x.rubric.found);
  assert.deepEqual(withRubric.map((x) => x.id).sort(), ['task_dmrg_1_3', 'task_dmrg_1_5', 'task_dmrg_2_2', 'task_dmrg_7_2']);
  assert.ok(withRubric.every((x) => x.rubric.normCheck?.ok));
  assert.equal(ds.rubricFiles.length, 4);
  assert.ok(ds.rubricFiles.every((r) => r.valid && r.referencedBy.length === 1));
  const ids = (pred: (x: LoadedTask) => boolean) => ds.tasks.filter(pred).map((x) => x.id).sort();
  const five = ['task_dmrg_1_3', 'task_dmrg_1_5', 'task_dmrg_2_2', 'task_dmrg_2_3', 'task_dmrg_7_2'];
  assert.deepEqual(ids((x) => x.counts.convergenceCases > 0), five);
  assert.deepEqual(ids((x) => x.counts.limitingCases > 0), [...five, 'task_nnwf_4_4', 'task_nnwf_4_5']);
  assert.deepEqual(ids((x) => x.counts.scientificResults > 0), ['task_qcmb_1_1', 'task_qcmb_1_2']);
  assert.ok(ds.tasks.some((x) => x.encoding.crlf), 'task_dmrg_2_3 has Windows line endings');
  for (const x of ds.tasks) LoadedTask.parse(x);
});

test('task_dmrg_7_2 loads with its source, rubric, LimitingCases and ConvergenceCases', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const task = await loadTaskFile(path.join(DATASET, TASK_7_2), { sourceText: true });
  assert.equal(task.id, 'task_dmrg_7_2');
  assert.equal(task.topic, 'dmrg');
  assert.equal(task.layout, 'qmp-bench');
  assert.equal(task.root, DATASET);
  assert.equal(task.task.subplot_name, 'Fig._1_a_right');
  assert.equal(task.source.path, path.join(DATASET, 'dmrg/sources/PhysRevLett.100.110403.tex'));
  assert.match(task.source.text!, /\\begin\{document\}/);
  assert.equal(task.rubric.path, path.join(DATASET, RUBRIC_7_2));
  assert.equal(task.rubric.leaves?.length, 19);
  assert.equal(task.rubric.normCheck?.ok, true);
  assert.deepEqual(task.counts, { limitingCases: 6, convergenceCases: 1, scientificResults: 0, rubricLeaves: 19 });
  assert.deepEqual(task.problems, []);
});

test('a nnwf task says it has no source and no rubric, and is still valid', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const task = await loadTaskFile(path.join(DATASET, 'nnwf/tasks/task_nnwf_4_5.json'));
  assert.equal(task.topic, 'nqs');
  assert.equal(task.source.found, false);
  assert.equal(task.rubric.found, false);
  assert.equal(task.rubric.path, path.join(DATASET, 'Rubrics/nnwf/science.aag2302_Fig._4_b_rubrics.json'));
  assert.equal(task.counts.limitingCases, 6);
});

test('BOM, CRLF and unknown keys are tolerated', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const { root, cleanup } = await copyDataset();
  t.after(cleanup);
  const file = path.join(root, TASK_7_2);
  const text = (await readFile(file, 'utf8')).replace(/\r?\n/g, '\r\n').replace('{', '{\n  "FutureKey": {"a": "\u00e9\u2014\u201c"},');
  await writeFile(file, `\uFEFF${text}`);
  const task = await loadTaskFile(file);
  assert.deepEqual(task.encoding, { bom: true, crlf: true });
  assert.deepEqual((task.task as Record<string, unknown>).FutureKey, { a: '\u00e9\u2014\u201c' });
  assert.equal(task.rubric.normCheck?.ok, true);
});

test('broken copies: bad JSON, missing key, wrong type, NormCheck failure — each names file and field', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const { root, cleanup } = await copyDataset();
  t.after(cleanup);
  const nnwf = path.join(root, 'nnwf/tasks/task_nnwf_4_5.json');
  const qcmb = path.join(root, 'qcmb/tasks/task_qcmb_1_1.json');
  const dmrg = path.join(root, TASK_7_2);
  const rubric = path.join(root, RUBRIC_7_2);
  await writeFile(nnwf, (await readFile(nnwf, 'utf8')).replace(/"User_requests"/, '"User_requests",'));
  await editJson(qcmb, (v) => {
    delete v.subplot_name;
    v.ScientificResults[0].truth = 0.159;
  });
  await editJson(rubric, (v) => {
    v.children[0].weight = 0.2; // categories now sum to 1.1
  });
  const ds = await loadDataset(root);
  const lines = ds.problems.map((p) => `${path.relative(root, p.file)} | ${p.field ?? ''} | ${p.message}`);
  assert.equal(ds.problems.length, 4, lines.join('\n'));
  assert.ok(ds.problems.every((p) => p.severity === 'error'));
  const find = (file: string, field?: string) => ds.problems.find((p) => p.file === file && p.field === field);
  assert.equal(find(nnwf)!.message, "invalid JSON: Unexpected token ',' at line 5 column 19");
  assert.match(find(qcmb, 'subplot_name')!.message, /expected string, received undefined/);
  assert.match(find(qcmb, 'ScientificResults.0.truth')!.message, /expected string, received number/);
  assert.match(find(rubric, 'children')!.message, /NormCheck failed: .* sum to 1\.1\b/);
  // The bad task files do not load; 7_2 loads but carries its rubric's error.
  assert.deepEqual(ds.tasks.map((x) => x.id), ['task_dmrg_7_2']);
  assert.equal(ds.tasks[0]!.rubric.normCheck?.ok, false);
  assert.equal(ds.taskFiles.length, 3);
  await assert.rejects(loadTaskFile(dmrg), (e: unknown) => e instanceof BadInputError && e.file === rubric && /NormCheck failed/.test(e.message));
  await assert.rejects(loadTaskFile(qcmb), (e: unknown) => e instanceof BadInputError && e.fieldPath === 'subplot_name' && e.message.includes(qcmb));
});

test('a rubric with a wrongly typed weight is an error at that weight; a missing rubric is only "not published"', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const { root, cleanup } = await copyDataset();
  t.after(cleanup);
  const rubric = path.join(root, RUBRIC_7_2);
  await editJson(rubric, (v) => {
    v.children[3].children[1].children[0].weight = '0.2';
  });
  const inspected = await inspectTaskFile(path.join(root, TASK_7_2));
  assert.deepEqual(
    inspected.problems.map((p) => [p.file, p.field]),
    [[rubric, 'children.3.children.1.children.0.weight']],
  );
  assert.equal(inspected.task?.rubric.found, true);
  assert.equal(inspected.task?.rubric.tree, undefined);
  await unlink(rubric);
  const task = await loadTaskFile(path.join(root, TASK_7_2));
  assert.equal(task.rubric.found, false);
  assert.deepEqual(task.problems, []);
});

test('our own layout: data/tasks/<topic>/<id>.json with digest, reference and rubrics/<topic>/', async (t) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'physvec-suite-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const task = {
    pdf_path: 'papers',
    pdf_name: 'h2-fci',
    subplot_name: 'Fig._1',
    User_requests: 'Compute the H2 dissociation curve.',
    rubrics_name: 'h2-fci_Fig._1_rubrics.json',
    topic: 'dft',
    toolchain: 'pyscf',
    digest: 'data/papers/h2-fci.md',
    reference: 'data/references/h2.py',
    scaled: { reason: 'fewer points', parameters: { points: { full: 50, used: 12 } } },
    LimitingCases: [{ content: 'E at R=0.74 A', truth: 'The energy is -1.137. The absolute error tolerance is +/- 0.001.' }],
  };
  const leaf = (w: number) => ({ issue: `issue ${w}`, weight: w, children: { judge: 'TBD', support: 'TBD' } });
  await writeJson(path.join(root, 'data/tasks/dft/h2_1.json'), task);
  await mkdir(path.join(root, 'data/papers'), { recursive: true });
  await writeFile(path.join(root, 'data/papers/h2-fci.md'), '# digest');
  await writeJson(path.join(root, 'rubrics/dft/h2-fci_Fig._1_rubrics.json'), {
    source: 'h2', guide_caption: 'c', task: 't', weight: 1,
    children: [{ id: 'a', statement: 'Code correctness', weight: 1, children: [leaf(0.25), leaf(0.75)] }],
  });
  const ds = await loadDataset(root);
  assert.equal(ds.layout, 'physvec');
  assert.deepEqual(
    ds.problems.map((p) => [p.field, p.message.replace(root, '<root>')]),
    [
      ['reference', 'reference solution not found: <root>/data/references/h2.py'],
      // The fixture's rubric has only its code section: legal, but warned about.
      ['children', 'lacks the rubric sections "model", "method", "parameters" (a QMP-Bench rubric has four top categories: code correctness, model, method, parameters); it still grades, but add the missing sections or check the statements'],
    ],
  );
  const [loaded] = ds.tasks;
  assert.equal(loaded!.id, 'h2_1');
  assert.equal(loaded!.topic, 'dft');
  assert.equal(loaded!.digest.found, true);
  assert.equal(loaded!.digest.path, path.join(root, 'data/papers/h2-fci.md'));
  assert.equal(loaded!.rubric.normCheck?.ok, true);
  // Also found when loading the single file (root found by walking up), and from data/tasks as the root.
  const again = await loadTaskFile(path.join(root, 'data/tasks/dft/h2_1.json')).catch((e: BadInputError) => e);
  assert.ok(again instanceof BadInputError && again.fieldPath === 'reference');
  assert.equal((await loadDataset(path.join(root, 'data', 'tasks'))).root, root);
});

test('paths in a task may not leave the dataset; topics must be known; a lone file still loads', async (t) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'physvec-lone-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const base = { pdf_path: 's', pdf_name: 'p', subplot_name: 'Fig._1', User_requests: 'u', rubrics_name: 'r.json' };
  await writeJson(path.join(root, 'task_dmrg_9_9.json'), base);
  const lone = await loadTaskFile(path.join(root, 'task_dmrg_9_9.json'));
  assert.equal(lone.layout, 'standalone');
  assert.equal(lone.topic, 'dmrg');
  assert.deepEqual([lone.source.found, lone.rubric.found, lone.rubric.path], [false, false, null]);

  await writeJson(path.join(root, 'mystery.json'), base);
  const unknown = await inspectTaskFile(path.join(root, 'mystery.json'));
  assert.equal(unknown.task, undefined);
  assert.equal(unknown.problems[0]!.field, 'topic');

  await writeJson(path.join(root, 'escape.json'), { ...base, topic: 'qsim', digest: '/etc/passwd' });
  const escape = await inspectTaskFile(path.join(root, 'escape.json'));
  assert.ok(escape.problems.some((p) => p.field === 'digest' && /outside the dataset root/.test(p.message)));
});

test('loadDataset refuses a path that is no dataset', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'physvec-empty-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await assert.rejects(loadDataset(dir), (e: unknown) => e instanceof BadInputError && /not a dataset root/.test(e.message));
  await assert.rejects(loadDataset(path.join(dir, 'nope')), (e: unknown) => e instanceof BadInputError && /not a directory/.test(e.message));
});
