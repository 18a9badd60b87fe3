// QMP-Bench as published (../shared/qmp-bench/Paper_dataset): every task validates and prepares on this
// machine with real toolchain detection (CI runs this), and published ids select by --tasks/--topics.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tasksPrepare, tasksValidate } from '../../cli/commands/tasks.js';
import { planByTopic, selectTasks } from '../../activities/campaign/plan.js';
import { specFromFlags } from '../../cli/runs/campaign-spec.js';
import type { PreparePassReport } from '../../cli/runs/prepare-pass.js';
import type { ValidationReport } from '../../lib/tasks/validation-report.js';
import { DATASET, datasetMissing } from './dataset-fixture.js';

test('every published task validates and prepares; dft is counted per topic', { timeout: 300_000 }, async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const out: string[] = [];
  const v = await tasksValidate(DATASET, { json: true }, { out: (l) => out.push(l) });
  const report = JSON.parse(out[0]!) as ValidationReport;
  assert.equal(v, 0);
  assert.equal(report.summary.valid, report.summary.taskFiles);
  assert.ok((report.summary.byTopic.dft ?? 0) > 0, 'dft_qc tasks load as dft');

  const prepOut: string[] = [];
  const code = await tasksPrepare(DATASET, { json: true }, { out: (l) => prepOut.push(l) });
  const prep = JSON.parse(prepOut[0]!) as PreparePassReport;
  const unprepared = prep.tasks.filter((x) => !x.preparable).map((x) => `${x.id}: ${x.error}`);
  assert.deepEqual(unprepared, [], 'every published task prepares here');
  assert.equal(code, 0);
  assert.equal(prep.summary.preparable, report.summary.taskFiles);
  for (const [topic, n] of Object.entries(report.summary.byTopic)) assert.equal(prep.byTopic[topic]!.preparable, n, topic);
  const dft = prep.tasks.filter((x) => x.topic === 'dft');
  assert.ok(dft.every((x) => x.protocol === 'found' && x.source === 'protocol'), 'the protocol is the source of every published dft_qc task');
  if (dft.every((x) => x.profile === 'pyscf')) assert.ok(dft.every((x) => x.translation && x.translation.rows > 0), 'PySCF stands in for ORCA with a translation table');
  process.stdout.write(`# prepare pass per topic: ${JSON.stringify(Object.fromEntries(Object.entries(prep.byTopic).map(([k, s]) => [k, `${s.preparable}/${s.tasks}`])))}\n`);
});

test('--tasks dft_qc_1_1 and --topics dft select published ids', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const one = await selectTasks({ root: DATASET, ids: ['dft_qc_1_1'], topics: [] });
  assert.deepEqual(one.map((x) => x.id), ['task_dft_qc_1_1']);
  const dft = await selectTasks({ root: DATASET, ids: [], topics: ['dft'] });
  assert.ok(dft.length >= 6 && dft.every((x) => x.id.startsWith('task_dft_qc_')));
  const keys = dft.map((x, i) => ({ key: `k${i}`, taskId: x.id, taskFile: x.file, topic: x.topic, model: 'm', framework: 'physvec' as const, trial: 1 }));
  assert.deepEqual(planByTopic(keys), { dft: { tasks: dft.length, runs: dft.length } });
  // The dataset's folder names select too: --topics dft_qc is --topics dft.
  assert.deepEqual(specFromFlags({ root: DATASET, topics: 'dft_qc,nnwf' }).selection.topics, ['dft', 'nqs']);
});
