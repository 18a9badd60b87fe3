// Durability: stop the dev server while a workflow waits on a timer, start it again on the same
// SQLite file, and the workflow completes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { startDevServer, stopDevServer } from '../../lib/temporal/dev-server.js';
import { freePort } from '../../lib/net/free-port.js';
import { createWorkers } from '../../workers/create-workers.js';
import { startSmoke } from '../../cli/runs/smoke-run.js';
import { repoRoot } from '../../lib/paths.js';
import { workflowBundle } from '../helpers/temporal.js';
import type { SmokeResult } from '../../workflows/smoke.js';


test('a workflow waiting on a timer survives a restart of the server', { timeout: 240_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-restart-'));
  const server = { dir, port: await freePort(), uiPort: await freePort() };
  const first = await startDevServer(server);
  assert.equal(first.alreadyRunning, false, 'a server of our own, on a free port');
  const address = `127.0.0.1:${server.port}`;
  let connection = await Connection.connect({ address });
  let client = new Client({ connection });
  const { workflowId } = await startSmoke(client, path.join(repoRoot, 'data/tasks/smoke/task_smoke_heisenberg_dimer.json'), { waitSeconds: 6 });
  await connection.close();

  // Let the first workflow task run (it schedules the timer), then take the server down.
  let wconn = await NativeConnection.connect({ address });
  let workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  await workers[0]!.runUntil(new Promise((r) => setTimeout(r, 1500)));
  await Promise.all(workers.slice(1).map((w) => w.runUntil(Promise.resolve())));
  await wconn.close();
  const stopped = await stopDevServer(server);
  assert.ok(stopped.stopped, 'the server process was stopped');

  await startDevServer(server); // same SQLite file
  connection = await Connection.connect({ address });
  client = new Client({ connection });
  wconn = await NativeConnection.connect({ address });
  workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    const handle = client.workflow.getHandle(workflowId);
    const [orch, sim] = workers;
    const result = (await orch!.runUntil(sim!.runUntil(handle.result()))) as SmokeResult;
    assert.equal(result.status, 'passed');
    const history = await handle.fetchHistory();
    const timerFired = history.events?.some((e) => e.timerFiredEventAttributes);
    assert.ok(timerFired, 'the timer started before the restart fired after it');
  } finally {
    await connection.close();
    await wconn.close();
    await stopDevServer(server);
  }
});
