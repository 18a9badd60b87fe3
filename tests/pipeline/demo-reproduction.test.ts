// The main job end to end on the real dev server: the bundled task reproduced with the scripted
// model. The Author's script carries (a) a wrong library call, (b) an interface mismatch, (c) a
// physics fault; the test checks each is caught at its stage and repaired, convergence is reached,
// the final numbers match exact references, and the HTML report renders in headless Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { chromiumAvailable, launchChromium } from '../helpers/browser.js';
import { recordHistoryIfAsked } from '../helpers/histories.js';
import { createWorkers } from '../../workers/create-workers.js';
import { startReproduction } from '../../cli/runs/reproduction-run.js';
import { DEMO_TASK, DEMO_MODEL } from '../../cli/runs/demo-run.js';
import { repoRoot } from '../../lib/paths.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';

const faults = JSON.parse(readFileSync(path.join(repoRoot, 'data/references/task_dmrg_tezuka_1a/demo/faults.json'), 'utf8')).faults as { id: string; function: string; functions: string[]; stage: string; caughtBy: string }[];

test('the demo reproduction finds and repairs all three faults and converges', { timeout: 1_500_000 }, async (t) => {
  const address = await ensureServer();
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    const started = await startReproduction(client, DEMO_TASK, { model: DEMO_MODEL });
    const [orch, sim] = workers;
    const result = (await orch!.runUntil(sim!.runUntil(started.handle.result()))) as ReproductionResult;
    assert.equal(result.status, 'passed', `${result.status}: ${result.message}`);
    assert.equal(result.scripted, true);
    const report = JSON.parse(readFileSync(result.report!.jsonPath, 'utf8'));
    assert.ok(report.notices.some((n: string) => /scripted model/.test(n)), 'the report says it was produced with the scripted model');

    // (a) the unit test of the function with the wrong library call fails in iteration 1, passes later.
    const a = faults.find((f) => f.id === 'a')!;
    const first = report.programming[0];
    assert.equal(first.judge_result.find((u: { function: string }) => u.function === a.function).judge, 'wrong');
    for (const u of first.judge_result) if (u.function !== a.function) assert.equal(u.judge, 'correct', `${u.function}: ${u.errors}`);
    // (b) the integration test fails at the level where the mismatched function enters, not in unit tests.
    const b = faults.find((f) => f.id === 'b')!;
    const rf = first.run_functions[0];
    assert.ok(rf.correct_ratio < 1);
    assert.match(rf.error_analysis, new RegExp((b as unknown as { enters_at: string }).enters_at));
    assert.ok(!rf.successful_element_functions.includes((b as unknown as { enters_at: string }).enters_at));
    const lastProg = report.programming.at(-1);
    assert.equal(lastProg.executable, true);
    assert.equal(lastProg.judge_result.every((u: { judge: string }) => u.judge === 'correct'), true);
    assert.equal(report.repairs[0].stage, 'programming');
    assert.deepEqual([...report.repairs[0].changed].sort(), [...new Set([a.function, b.function])].sort());
    // (c) the physics fault fails an assertion in scientific iteration 1 and is repaired.
    const c = faults.find((f) => f.id === 'c')!;
    const caseId = c.caughtBy.replace('assertion:', 'limiting:');
    const sci1 = report.scientific[0];
    assert.equal(sci1.assertions.find((x: { case: string }) => x.case === caseId).judge, 'wrong');
    const sciLast = report.scientific.at(-1);
    for (const x of sciLast.assertions) assert.equal(x.judge, 'correct', `${x.case}: ${x.reason}`);
    // The report's full rubric scorecard: every leaf with one judge per grading repeat (not only the failed ones).
    if (sciLast.rubric.available) {
      assert.ok(Array.isArray(sciLast.scorecard) && sciLast.scorecard.length > sciLast.rubric.failed.length, 'every rubric leaf is in the scorecard');
      for (const l of sciLast.scorecard) assert.equal(l.judges.length, sciLast.rubric.grades.length, `leaf ${l.index}: one judge per repeat`);
    }
    const sciRepair = report.repairs.find((r: { stage: string }) => r.stage === 'scientific');
    assert.deepEqual(sciRepair.changed, [c.function]);
    // Convergence reached, and the final numbers agree with exact references (numeric checks by code).
    assert.ok(report.convergence.length > 0 && report.convergence.every((x: { converged: boolean }) => x.converged));
    // …and the script's own setting gives the converged value (its final run compared with it).
    for (const x of report.convergence) assert.equal(x.ownSetting?.pass, true, `${x.case}: ${x.ownSetting?.reason ?? 'own setting not compared'}`);
    const numeric = sciLast.assertions.filter((x: { method: string }) => x.method === 'numeric');
    assert.ok(numeric.length >= 4, 'several exact references were compared by code');
    assert.ok(report.finalRun.files.some((f: { path: string }) => f.path === 'figure.png'));

    // PHYSVEC_RECORD_HISTORY=1 keeps the history as this build's replay fixture (tests/helpers/histories.ts).
    if (process.env.PHYSVEC_RECORD_HISTORY) recordHistoryIfAsked('demo-reproduction', await started.handle.fetchHistory());

    await t.test('the HTML report renders with its verdict table and figure', async (st) => {
      if (!chromiumAvailable()) return st.skip('Debian chromium is not installed (/usr/bin/chromium); bootstrap --test installs it');
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(`file://${result.report!.htmlPath}`);
        assert.ok(await page.locator('#verdicts').isVisible(), 'verdict table visible');
        const img = page.locator('#figure');
        assert.ok(await img.isVisible(), 'figure visible');
        const width = await img.evaluate((el) => (el as HTMLImageElement).naturalWidth);
        assert.ok(width > 100, 'the figure decoded');
        const shot = await page.screenshot({ fullPage: false });
        assert.ok(shot.length > 10_000, 'a real screenshot was taken');
        assert.deepEqual(errors, []);
      } finally {
        await browser.close();
      }
    });
  } finally {
    await connection.close();
    await wconn.close();
  }
});
