import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { parseRubric } from '../../lib/rubrics/parse.js';
import { validateWith } from '../../lib/input-files/zod-problems.js';
import { RubricTree } from '../../schemas/rubric.js';
import { Task } from '../../schemas/task.js';
import { DATASET, RUBRIC_7_2, TASK_7_2, datasetMissing, readJson } from './dataset-fixture.js';

const topics = ['dmrg', 'nnwf', 'qcmb'];

test('every published task file satisfies the Task schema', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  let n = 0;
  for (const topic of topics) {
    const dir = path.join(DATASET, topic, 'tasks');
    for (const f of readdirSync(dir)) {
      const r = validateWith(Task, await readJson(path.join(dir, f)), f);
      assert.ok(r.ok, `${f}: ${JSON.stringify(!r.ok && r.problems)}`);
      n++;
    }
  }
  assert.equal(n, 73);
});

test('every published rubric file (and the empty template) satisfies the RubricTree schema', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const dir = path.join(DATASET, 'Rubrics', 'dmrg');
  const files = readdirSync(dir).map((f) => path.join(dir, f));
  assert.equal(files.length, 4);
  for (const f of [...files, path.join(DATASET, 'Rubrics', 'rubrics.json')]) {
    const r = parseRubric(await readJson(f), f);
    assert.ok(r.ok, `${f}: ${JSON.stringify(!r.ok && r.problems)}`);
  }
});

const minimalTask = () => ({
  pdf_path: 'sources',
  pdf_name: 'PhysRevLett.100.110403',
  subplot_name: 'Fig._1_a_right',
  User_requests: 'Reproduce it.',
  rubrics_name: 'x_rubrics.json',
});

test('unknown task keys pass through; our optional fields are typed', () => {
  const r = Task.parse({ ...minimalTask(), SomeFutureKey: [1, 2], topic: 'nnwf', scaled: { reason: 'cost', parameters: { L: { full: 200, used: 40 } } } });
  assert.deepEqual((r as Record<string, unknown>).SomeFutureKey, [1, 2]);
  assert.equal(r.topic, 'nnwf');
  assert.equal(r.scaled?.parameters?.L?.used, 40);
  const bad = validateWith(Task, { ...minimalTask(), topic: 'chemistry' }, 'f.json');
  assert.ok(!bad.ok && bad.problems[0]!.field === 'topic');
});

test('scaled: one shape ({reason, parameters: {name: {full, used}}}); stray keys and unscaled parameters are errors', () => {
  const ok = validateWith(Task, { ...minimalTask(), scaled: { reason: 'at the article size', parameters: {} } }, 't.json');
  assert.ok(ok.ok);
  const old = validateWith(Task, { ...minimalTask(), scaled: { note: 'n', full: { L: 200 }, here: { L: 12 } } }, 't.json');
  assert.ok(!old.ok);
  const fields = old.problems.map((p) => `${p.field}: ${p.message}`).join('\n');
  assert.match(fields, /scaled\.reason/, fields);
  assert.match(fields, /note|full|here/, 'the stray keys are named');
  const same = validateWith(Task, { ...minimalTask(), scaled: { reason: 'r', parameters: { J: { full: 1, used: 1 } } } }, 't.json');
  assert.ok(!same.ok);
  assert.deepEqual(same.problems.map((p) => p.field), ['scaled.parameters.J']);
  assert.match(same.problems[0]!.message, /list only parameters that were scaled/);
});

test('a missing required task key fails with its name', () => {
  const { User_requests: _, ...rest } = minimalTask();
  const r = validateWith(Task, rest, 'task.json');
  assert.ok(!r.ok);
  assert.equal(r.problems.length, 1);
  assert.equal(r.problems[0]!.field, 'User_requests');
  assert.equal(r.problems[0]!.file, 'task.json');
  assert.match(r.problems[0]!.message, /expected string, received undefined/);
});

test('a mistyped nested task field fails with its full path', () => {
  const r = validateWith(Task, { ...minimalTask(), LimitingCases: [{ content: 'a', truth: 'b' }, { content: 'c', truth: 5 }] }, 't.json');
  assert.ok(!r.ok);
  assert.deepEqual(r.problems.map((p) => p.field), ['LimitingCases.1.truth']);
  const cc = validateWith(Task, { ...minimalTask(), ConvergenceCases: [{ content: 'a', criteria: 'b' }] }, 't.json');
  assert.ok(!cc.ok);
  assert.deepEqual(cc.problems.map((p) => p.field), ['ConvergenceCases.0.parameter']);
});

test('rubric errors name the exact field of the node, not "Invalid input" on the union', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const tree = await readJson(path.join(DATASET, RUBRIC_7_2));
  tree.children[1].children[0].children[2].weight = '0.3';
  tree.children[2].children[1].children[0].children.judge = 'maybe';
  delete tree.children[0].children[1].issue;
  tree.children[3].id = 7;
  const r = parseRubric(tree, 'r.json');
  assert.ok(!r.ok);
  const byField = new Map(r.problems.map((p) => [p.field, p.message]));
  assert.deepEqual([...byField.keys()].sort(), [
    'children.0.children.1.issue',
    'children.1.children.0.children.2.weight',
    'children.2.children.1.children.0.children.judge',
    'children.3.id',
  ]);
  assert.match(byField.get('children.1.children.0.children.2.weight')!, /expected number, received string/);
  assert.match(byField.get('children.2.children.1.children.0.children.judge')!, /expected one of "TBD", 0, 1, received "maybe"/);
  assert.ok(r.problems.every((p) => p.file === 'r.json'));
});

test('graded judges (0/1) are accepted; negative weights are not', () => {
  const leaf = (judge: unknown, weight: unknown = 1) => ({ issue: 'i', weight, children: { judge, support: 's' } });
  const tree = (...children: unknown[]) => ({ source: '', guide_caption: '', task: '', weight: 1, children });
  assert.ok(RubricTree.safeParse(tree(leaf(0), leaf(1), leaf('TBD'))).success);
  const neg = parseRubric(tree(leaf(1, -0.5)), 'r.json');
  assert.ok(!neg.ok && neg.problems[0]!.field === 'children.0.weight');
});

test('the task 7_2 file keeps its LimitingCases and ConvergenceCases', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const task = Task.parse(await readJson(path.join(DATASET, TASK_7_2)));
  assert.equal(task.LimitingCases?.length, 6);
  assert.equal(task.ConvergenceCases?.length, 1);
  assert.match(task.ConvergenceCases![0]!.parameter, /nsweeps/);
});

test('schemas export to JSON Schema (for structured LLM output)', () => {
  for (const s of [Task, RubricTree]) assert.equal(z.toJSONSchema(s).type, 'object');
});
