// Every ending is recorded: a failed, a budget-stopped, a stopped and two errored reproductions (an
// activity out of attempts mid-run; a task that cannot be prepared) each leave a report saying what
// was done and why it stopped, and a final `Verdict` search attribute that visibility queries find.
// Then the Temporal Web UI, in headless Chromium: the activity summaries are on the run's page and the
// list's status column is Temporal's own (not overridden by a custom `Status` attribute).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { chromiumAvailable, launchChromium } from '../helpers/browser.js';
import { createWorkers } from '../../workers/create-workers.js';
import { temporalBin, repoRoot } from '../../lib/paths.js';
import { RUN_ERROR } from '../../workflows/shared/ending.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';
import { DIMER_MODEL, startRepro, waitFor } from './drill-support.js';

/** A variant of the dimer cassette written to a temp file; returns its model id. */
function dimerVariant(name: string, edit: (entries: { role: string; json?: { variants?: { main: string }[] } }[]) => typeof entries): string {
  const cassette = JSON.parse(readFileSync(path.join(repoRoot, 'data', 'cassettes', 'task_smoke_dimer_pipeline.json'), 'utf8'));
  cassette.entries = edit(cassette.entries);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-endings-')), `${name}.json`);
  writeFileSync(file, JSON.stringify(cassette));
  return `scripted:${file}`;
}

/** Without the assertion-writer entry: the scientific stage's call fails (non-retryable) after programming is done. */
const withoutAssertionWriter = () => dimerVariant('no-assertion-writer', (entries) => entries.filter((e) => e.role !== 'assertion-writer'));

/** The limiting-case variant prints E0 + 1: the physical assertion is judged wrong by code. */
const wrongAssertion = () =>
  dimerVariant('wrong-assertion', (entries) => {
    const writer = entries.find((e) => e.role === 'assertion-writer')!;
    for (const v of writer.json!.variants!) {
      const wrong = v.main.replace('% e[0]', '% (e[0] + 1.0)');
      assert.notEqual(wrong, v.main, 'the variant main prints e[0] (the cassette changed?)');
      v.main = wrong;
    }
    return entries;
  });

async function verdictOf(handle: WorkflowHandle): Promise<string | undefined> {
  return (await handle.describe()).searchAttributes.Verdict?.[0] as string | undefined;
}

function readReport(jsonPath: string): { status: string; message?: string; stageReached: string; taskPrepared: boolean; programming: unknown[] } {
  assert.ok(existsSync(jsonPath), `report at ${jsonPath}`);
  return JSON.parse(readFileSync(jsonPath, 'utf8'));
}

test('failed, budget-stopped, stopped and errored reproductions each write a report and a final Verdict', { timeout: 900_000 }, async () => {
  const address = await ensureServer();
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const [orch, sim] = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  const rows: string[] = [];
  try {
    await orch!.runUntil(sim!.runUntil(async () => {
      // failed: a physical assertion is wrong and there is only one scientific iteration.
      const failed = await startRepro(client, { model: wrongAssertion(), limits: { scientificIterations: 1 } });
      // budget: not even the first call fits in one token.
      const budget = await startRepro(client, { model: DIMER_MODEL, budget: { maxTokens: 1 } });
      // stopped: paused after the author, then told to stop.
      const stopped = await startRepro(client, { model: DIMER_MODEL, pauseAfter: ['author'] });
      // error mid-run: the scientific stage's LLM call has no cassette entry (non-retryable).
      const midRun = await startRepro(client, { model: withoutAssertionWriter() });
      // error before anything: the task file does not exist.
      const unprepared = await startRepro(client, { model: DIMER_MODEL, taskFile: path.join(os.tmpdir(), 'no-such-task-file.json') });

      await waitFor('the paused reproduction', async () => ((await verdictOf(stopped)) === 'paused' ? true : undefined), 300_000);
      await stopped.signal('stop', 'drill: stop after the author');

      for (const [name, handle, verdict] of [['failed', failed, 'failed'], ['budget', budget, 'budget_exhausted'], ['stopped', stopped, 'stopped']] as const) {
        const r = (await handle.result()) as ReproductionResult;
        assert.equal(r.status, verdict, `${name}: ${r.message}`);
        assert.equal(await verdictOf(handle), verdict, `${name}: final Verdict`);
        const report = readReport(r.report!.jsonPath);
        assert.equal(report.status, verdict);
        assert.ok(report.message && report.message.length > 10, `${name}: the report says why it stopped`);
        assert.equal((await handle.describe()).memo?.reportPath, r.report!.htmlPath, `${name}: the memo carries the report's path`);
        rows.push(`${name.padEnd(10)} ${verdict.padEnd(17)} stage ${report.stageReached.padEnd(12)} ${report.message}`);
      }

      for (const [name, handle, stage] of [['mid-run', midRun, 'scientific'], ['unprepared', unprepared, 'prepare']] as const) {
        const err = await handle.result().then(() => undefined, (e: unknown) => e);
        assert.ok(err instanceof WorkflowFailedError, `${name}: the workflow fails (Temporal status Failed)`);
        const cause = err.cause as { type?: string; message: string; details?: { report?: { jsonPath: string } }[] };
        assert.equal(cause.type, RUN_ERROR);
        assert.equal(await verdictOf(handle), 'error', `${name}: final Verdict`);
        const report = readReport(cause.details![0]!.report!.jsonPath);
        assert.equal(report.status, 'error');
        assert.equal(report.stageReached, stage);
        assert.match(report.message!, new RegExp(`error during stage ${stage}`));
        if (name === 'mid-run') {
          assert.equal(report.programming.length, 1, 'what was done before the error is in the report');
          assert.match(report.message!, /assertion-writer/, 'the root cause (the missing cassette entry) is named');
          // The LLM transcript, read from the run's history by the report activity: each role's calls, the failed one too.
          const html = readFileSync(path.join(path.dirname(cause.details![0]!.report!.jsonPath), 'report.html'), 'utf8');
          for (const role of ['author', 'unit-test-writer', 'assertion-writer']) assert.match(html, new RegExp(`<section class="llm-role" id="role-${role}">`), `transcript section of ${role}`);
          const writer = /<section class="llm-role" id="role-assertion-writer">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
          assert.match(writer, /<details class="llm-call failed"[\s\S]*?<div class="who">failed<\/div><pre class="tb">[^<]*assertion-writer/, `the failed call with its failure: ${writer.slice(0, 3000)}`);
          assert.match(html, /<details class="llm-call ok" id="llm-1"><summary><code>author\/[^<]+<\/code> scripted:[^<]* \(scripted\) — ok/, 'the first call: the author, scripted');
        } else {
          assert.equal(report.taskPrepared, false);
        }
        rows.push(`${name.padEnd(10)} ${'error'.padEnd(17)} stage ${report.stageReached.padEnd(12)} ${report.message!.slice(0, 160)}`);
      }

      // Visibility finds the failed run by its Verdict (the CLI, as a person would type it).
      const listed = await waitFor('visibility of Verdict="failed"', async () => {
        const r = await execa(temporalBin, ['workflow', 'list', '--address', address, '--query', 'Verdict="failed"', '-o', 'json'], { reject: false });
        return r.exitCode === 0 && r.stdout.includes(failed.workflowId) ? r.stdout : undefined;
      }, 30_000, 500);
      assert.ok(listed.includes(failed.workflowId));
      assert.ok(!listed.includes(stopped.workflowId), 'the stopped run is not listed as failed');
      console.log(`# endings (name, verdict, stage reached, report message):\n${rows.map((r) => `#   ${r}`).join('\n')}`);

      // ---- the Web UI ---------------------------------------------------------------------------
      if (!chromiumAvailable()) {
        console.log('# SKIPPED the Web UI check: no Chromium at /usr/bin/chromium (set PHYSVEC_CHROMIUM)');
        return;
      }
      const ui = `http://127.0.0.1:${process.env.PHYSVEC_UI_PORT ?? 8233}`;
      const browser = await launchChromium();
      try {
        // A tall page: the UI renders only the part of the timeline in view.
        const page = await browser.newPage({ viewport: { width: 1600, height: 2400 } });
        // The run's page: its timeline names each activity by its summary.
        await page.goto(`${ui}/namespaces/default/workflows/${midRun.workflowId}`, { waitUntil: 'networkidle' });
        const summaries = ['unit test site_spin_half', 'full script run', 'LLM unit-test-writer/programming 1', 'prepare task task_smoke_dimer_pipeline.json'];
        const html = await waitFor('the activity summaries on the run page', async () => {
          const h = await page.content();
          return summaries.every((x) => h.includes(x)) ? h : undefined;
        }, 90_000, 1000).catch(() => page.content());
        for (const x of summaries) assert.ok(html.includes(x), `the run's page shows "${x}"`);
        // The list: Temporal's own status column (Completed / Failed), not a custom attribute's value.
        await page.goto(`${ui}/namespaces/default/workflows?query=${encodeURIComponent(`WorkflowId="${failed.workflowId}" OR WorkflowId="${midRun.workflowId}"`)}`, { waitUntil: 'networkidle' });
        const rowOf = (id: string) => waitFor(`the list row of ${id}`, async () => (await page.getByRole('row').filter({ hasText: id }).allInnerTexts())[0], 90_000, 1000);
        assert.match(await rowOf(failed.workflowId), /\bcompleted\b/i, 'a run with Verdict failed completed (native status)');
        assert.match(await rowOf(midRun.workflowId), /\bfailed\b/i, 'a run that ended in error failed (native status)');
        const headers = (await page.locator('th').allInnerTexts()).map((h) => h.trim());
        assert.equal(headers.filter((h) => /^status$/i.test(h)).length, 1, `one status column: ${headers.join(' | ')}`);
      } finally {
        await browser.close();
      }
    }));
  } finally {
    await wconn.close();
    await connection.close();
  }
});
