// QMP-Bench's own worked example, task_dmrg_7_2 (read from ../shared/qmp-bench as published), run
// with the TeNPy substitute for ITensors and the scripted model: the substitution is explicit in the
// request and the rubric, and every scientific-test path runs — rubric grading with a consistency
// pass, numeric assertions compared by code, a symmetry property checked by code, an aggregated
// repair, and the convergence escalation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { createWorkers } from '../../workers/create-workers.js';
import { startReproduction } from '../../cli/runs/reproduction-run.js';
import { qmpBenchRoot } from '../../lib/paths.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';

const TASK = path.join(qmpBenchRoot, 'dmrg', 'tasks', 'task_dmrg_7_2.json');

test('task_dmrg_7_2 runs every scientific-test path with the tenpy substitute', { timeout: 1_500_000 }, async () => {
  const address = await ensureServer();
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    const started = await startReproduction(client, TASK, { model: 'scripted:task_dmrg_7_2', toolchain: 'tenpy', dataset: qmpBenchRoot });
    const [orch, sim] = workers;
    const result = (await orch!.runUntil(sim!.runUntil(started.handle.result()))) as ReproductionResult;
    const report = JSON.parse(readFileSync(result.report!.jsonPath, 'utf8'));
    assert.equal(result.status, 'passed', `${result.status}: ${result.message}`);

    // The substitution is stated first, the Author's request names TeNPy, rubric leaves naming ITensors were adapted.
    assert.match(report.notices[0], /ITensors/);
    assert.match(report.notices[0], /tenpy|TeNPy/i);
    assert.match(report.task.request, /tenpy|TeNPy/i);
    assert.ok(report.task.substitution.adaptedLeaves.length > 0, 'rubric leaves naming ITensors were adapted');
    const html = readFileSync(result.report!.htmlPath, 'utf8');
    assert.match(html, /id="adapted-rubric"/);

    // Rubric graded over the published tree (19 leaves), twice with a consistency pass each.
    const first = report.scientific[0];
    assert.equal(first.rubric.available, true);
    assert.equal(first.rubric.grades.length, 2);
    // Every LimitingCase ran: numeric ones compared by code, the symmetry one by the property check.
    assert.equal(first.assertions.length, 6);
    assert.ok(first.assertions.some((a: { method: string }) => a.method === 'property'), 'the symmetry truth was checked by code');
    assert.ok(first.assertions.filter((a: { method: string }) => a.method === 'numeric').length >= 4);
    assert.ok(first.assertions.some((a: { judge: string }) => a.judge === 'wrong'), 'the shifted trap fails an assertion');
    assert.ok(report.repairs.some((r: { stage: string }) => r.stage === 'scientific'), 'one aggregated scientific repair');
    for (const a of report.scientific.at(-1).assertions) assert.equal(a.judge, 'correct', `${a.case}: ${a.reason}`);
    assert.ok(report.convergence[0].converged);
    assert.ok(report.convergence[0].sequence.length >= 2);
  } finally {
    await connection.close();
    await wconn.close();
  }
});
