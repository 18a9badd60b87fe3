// Workflow → activity → sandbox round trip on the real dev server, visible by search attribute and
// in the Web UI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execa } from 'execa';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { createWorkers } from '../../workers/create-workers.js';
import { startSmoke } from '../../cli/runs/smoke-run.js';
import { repoRoot, temporalBin } from '../../lib/paths.js';
import type { SmokeResult } from '../../workflows/smoke.js';

test('a smoke reproduction runs its script in the sandbox and is listed by Topic', async () => {
  const address = await ensureServer();
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    const run = async () => {
      const { handle, workflowId } = await startSmoke(client, path.join(repoRoot, 'data/tasks/smoke/task_smoke_heisenberg_dimer.json'));
      const result = (await handle.result()) as SmokeResult;
      return { result, workflowId };
    };
    const [orch, sim] = workers;
    const { result, workflowId } = await orch!.runUntil(sim!.runUntil(run()));
    assert.equal(result.status, 'passed', JSON.stringify(result.run).slice(0, 2000));
    assert.equal(result.run.exitCode, 0);
    const energy = /PHYSVEC_RESULT (\{.*\})/.exec(result.run.stdoutTail);
    assert.ok(energy, 'the script printed its result');
    assert.ok(Math.abs(JSON.parse(energy[1]!).value + 0.75) < 1e-9, 'dimer energy is -3/4');
    assert.ok(result.run.files.some((f) => f.path === 'figure.png'), 'figure.png was collected');

    // Visible through the CLI's search-attribute query (visibility is eventually consistent).
    let listed = '';
    for (let i = 0; i < 40 && !listed.includes(workflowId); i++) {
      const r = await execa(temporalBin, ['workflow', 'list', '--address', address, '--query', 'Topic="dmrg"'], { reject: false });
      listed = r.stdout;
      if (!listed.includes(workflowId)) await new Promise((res) => setTimeout(res, 250));
    }
    assert.ok(listed.includes(workflowId), `temporal workflow list --query 'Topic="dmrg"' lists ${workflowId}`);
    const d = await client.workflow.getHandle(workflowId).describe();
    assert.equal(d.searchAttributes.Stage?.[0], 'done');
    assert.equal(d.searchAttributes.Verdict?.[0], 'passed');

    // The Web UI answers.
    const uiPort = Number(process.env.PHYSVEC_UI_PORT ?? 18233);
    const res = await fetch(`http://127.0.0.1:${uiPort}/`);
    assert.equal(res.status, 200);
  } finally {
    await connection.close();
    await wconn.close();
  }
});
