// CI's fast subset of `physvec tasks validate data --run`, on the real dev server with in-process
// workers and the real sandbox: two references must come out green; a scientific mutant must be flagged
// at the scientific stage with its faulty function localised against the reference, and a programming
// mutant flagged at the programming stage with the crashing function named. Expectations come from the
// mutants' own <name>.json files. The full suite is `physvec tasks validate data --run` (not run in CI).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { Worker } from '@temporalio/worker';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { recordHistoryIfAsked } from '../helpers/histories.js';
import { workflowBundle } from '../../workers/create-workers.js';
import { loadDataset } from '../../lib/tasks/dataset.js';
import { repoRoot } from '../../lib/paths.js';
import { validateSuite } from '../../cli/runs/validate-suite.js';
import { suiteEntries } from '../../cli/runs/validation-suite.js';
import { formatTable } from '../../cli/runs/validation-table.js';

/**
 * Cheap on 2 cores, two toolchains: LiH with PySCF (+ its wrong-library-call mutant), a Trotterised
 * domain wall with Qiskit, and water's dipole with a wrong-charge mutant the scientific stage must
 * localise. (The DMRG pair this subset had cost ~150 s of simulation; DMRG pipelines are run green in
 * demo-reproduction and qmp-task.)
 */
const SUBSET = [
  'task_dft_lih_b3lyp/reference',
  'task_dft_lih_b3lyp/nonexistent_b3lyp_class',
  'task_qsim_trotter_domain_wall/reference',
  'task_dft_h2o_dipole/wrong_charge',
];

test('validation of a fast subset: references green, mutants caught at their stage with their function named', { timeout: 1_200_000 }, async () => {
  await ensureServer();
  const dataset = await loadDataset(path.join(repoRoot, 'data'));
  const { entries } = await suiteEntries(dataset, { only: SUBSET });
  assert.deepEqual(entries.map((e) => `${e.taskId}/${e.script}`).sort(), [...SUBSET].sort(), 'the subset exists in the suite');
  const mutants = entries.filter((e) => e.kind === 'mutant');
  assert.deepEqual(mutants.map((m) => m.expected.stage).sort(), ['programming', 'scientific'], 'one programming and one scientific mutant');

  const progress: string[] = [];
  const result = await validateSuite(dataset, { ok: true }, { json: true, out: () => {}, err: (l) => progress.push(l), only: SUBSET, concurrency: SUBSET.length, workers: 'in-process' });
  const table = formatTable(result.rows, result.summary).join('\n');
  process.stdout.write(`${table}\n`);

  assert.equal(result.rows.length, SUBSET.length);
  for (const row of result.rows) {
    const entry = entries.find((e) => e.taskId === row.task && e.script === row.script)!;
    const label = `${row.task}/${row.script}: ${row.detail}`;
    assert.ok(row.workflowId, `${label}: a workflow ran`);
    if (row.kind === 'reference') {
      assert.equal(row.stage, 'passed', label);
      const [passed, total] = row.assertions.split('/').map(Number);
      assert.ok(total! > 0 && passed === total, `${label}: assertions ${row.assertions}`);
      assert.match(row.convergence, /^yes@/, `${label}: convergence reached`);
      assert.deepEqual(row.failedCases, [], label);
      assert.equal(row.faultyFunction, null, label);
    } else {
      assert.equal(row.stage, entry.expected.stage, label);
      assert.equal(row.faultyFunction, entry.expected.faultyFunction, label);
      const caught = /^assertion:(\d+)$/.exec(entry.expected.caughtBy ?? '');
      if (caught) assert.ok(row.failedCases.includes(`limiting:${caught[1]}`), `${label}: fails the limiting case its description names`);
      if (entry.expected.stage === 'programming') assert.deepEqual([row.assertions, row.failedCases], ['not run', []], `${label}: a crashing script goes no further`);
    }
    assert.equal(row.ok, true, label);
  }
  assert.equal(result.summary.ok, true);
  assert.equal(result.exitCode, 0);
  assert.match(table, /references green 2\/2; mutants caught at the right stage with the right function 2\/2/);
  assert.ok(progress.some((l) => /\[4\/4\]/.test(l)), 'progress lines were printed');

  // The histories replay against the current workflow code (determinism); PHYSVEC_RECORD_HISTORY keeps
  // the localised mutant's one as a fixture for tests/pipeline/replay.test.ts.
  const { client, connection } = await testClient();
  try {
    const histories = await Promise.all(result.rows.map(async (r) => ({ workflowId: r.workflowId!, history: await client.workflow.getHandle(r.workflowId!).fetchHistory() })));
    let replayed = 0;
    for await (const r of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories)) {
      assert.equal(r.error, undefined, `${r.workflowId}: ${r.error}`);
      replayed++;
    }
    assert.equal(replayed, histories.length);
    const localised = result.rows.find((r) => r.kind === 'mutant' && r.stage === 'scientific')!;
    recordHistoryIfAsked('reference-validation', histories.find((h) => h.workflowId === localised.workflowId)!.history);
  } finally {
    await connection.close();
  }
});
