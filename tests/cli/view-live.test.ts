// `physvec view` against the real dev server (issue 29.7): a scripted reproduction of the dimer
// pipeline task runs to its end on in-process workers; the index then lists it from Temporal
// visibility and its report: verdict passed, the task, model "scripted", its tokens and $0 cost, the
// stage, a relative link that reaches its report (with the LLM transcript by role) and the Temporal UI
// link of that very run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { createWorkers } from '../../workers/create-workers.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';
import { DIMER_MODEL, startRepro, waitFor } from '../pipeline/drill-support.js';
import { runCli } from './run-cli.js';

interface Row { workflowId: string; runId: string; verdict: string; taskId: string; model: string; stage: string; tokensIn: number; costUsd: number; reportFile: string; sources: string[] }

test('physvec view lists a finished run from Temporal visibility and its report, with working links', { timeout: 600_000 }, async () => {
  const address = await ensureServer();
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const [orch, sim] = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    const handle = await startRepro(client, { model: DIMER_MODEL });
    const result = (await orch!.runUntil(sim!.runUntil(handle.result()))) as ReproductionResult;
    assert.equal(result.status, 'passed', result.message);
    const env = { TEMPORAL_ADDRESS: address, PHYSVEC_UI_URL: 'http://ui.example:8233' };
    // Visibility is eventually consistent: wait until the index shows the final verdict.
    const row = await waitFor('the run in the index with its final verdict', async () => {
      const r = await runCli(['view', '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      const found = (JSON.parse(r.stdout) as { runs: Row[] }).runs.find((x) => x.workflowId === handle.workflowId);
      return found?.verdict === 'passed' && found.sources.includes('temporal') ? found : undefined;
    }, 30_000, 500);
    assert.deepEqual([row.taskId, row.model, row.stage, row.costUsd], ['task_smoke_dimer_pipeline', DIMER_MODEL, 'report', 0]);
    assert.equal(row.tokensIn, 0, 'the tokens of its report (a number: this cassette records no usage)');
    assert.deepEqual([...row.sources].sort(), ['report', 'temporal']);

    const out = mkdtempSync(path.join(os.tmpdir(), 'physvec-view-live-'));
    const r = await runCli(['view', '--out', out], env);
    assert.equal(r.code, 0, r.stderr);
    const html = readFileSync(path.join(out, 'index.html'), 'utf8');
    const tr = html.split('<tr class="').find((t) => t.includes(`<code>${handle.workflowId}</code>`));
    assert.ok(tr, 'a row for the run');
    assert.match(tr, /<td class="verdict ok">passed<\/td><td>task_smoke_dimer_pipeline<\/td><td title="scripted:task_smoke_dimer_pipeline">scripted<\/td>/);
    assert.ok(tr.includes(`href="http://ui.example:8233/namespaces/default/workflows/${encodeURIComponent(handle.workflowId)}/${row.runId}/history"`), 'the UI page of this run');
    const href = /<a class="report" href="([^"]+)">/.exec(tr)?.[1];
    assert.ok(href && !href.startsWith('/'), `a relative report link (${href})`);
    const report = path.resolve(out, decodeURIComponent(href));
    assert.ok(existsSync(report), report);
    const page = readFileSync(report, 'utf8');
    assert.match(page, /<section class="llm-role" id="role-author">/, 'the report has the transcript by role');
  } finally {
    await connection.close();
    await wconn.close();
  }
});
