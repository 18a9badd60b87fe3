// A dev-server database made by an older version (custom attribute `Status`, no `Verdict`): `start-dev`
// alone keeps its old attributes, so startDevServer migrates it — Verdict added — and a second start
// changes nothing. Additive (issue 25.5): Status stays, so a worker of the older build that still
// upserts it can start runs (rollback); `physvec server retire-attributes` removes it on request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { Client, Connection } from '@temporalio/client';
import { defineSearchAttributeKey } from '@temporalio/common';
import { freePort } from '../../lib/net/free-port.js';
import { temporalBin } from '../../lib/paths.js';
import { migrateSearchAttributes, startDevServer, stopDevServer, waitHealthy } from '../../lib/temporal/dev-server.js';

async function customAttributes(address: string): Promise<string[]> {
  const r = await execa(temporalBin, ['operator', 'search-attribute', 'list', '--address', address, '-o', 'json']);
  return Object.keys(JSON.parse(r.stdout).customAttributes ?? {}).sort();
}

test('an old database with Status gets Verdict at start and keeps Status until it is retired', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-sa-migration-'));
  const port = await freePort();
  const uiPort = await freePort();
  const address = `127.0.0.1:${port}`;
  // The old version's server: its attribute set, then stopped.
  const old = spawn(temporalBin, ['server', 'start-dev', '--db-filename', path.join(dir, 'temporal.db'), '--ip', '127.0.0.1', '--port', String(port), '--ui-port', String(uiPort), '--headless', '--log-level', 'error', '--search-attribute', 'TaskId=Keyword', '--search-attribute', 'Status=Keyword'], { stdio: 'ignore' });
  try {
    await waitHealthy(address);
    assert.deepEqual(await customAttributes(address), ['Status', 'TaskId']);
  } finally {
    old.kill('SIGTERM');
    await new Promise((r) => old.once('exit', r));
  }
  try {
    await startDevServer({ dir, port, uiPort });
    const now = await customAttributes(address);
    assert.ok(now.includes('Verdict'), `Verdict added: ${now.join(', ')}`);
    assert.ok(now.includes('Status'), `Status kept for older builds: ${now.join(', ')}`);
    assert.ok(now.includes('CampaignId') && now.includes('TaskId'));
    assert.deepEqual(await migrateSearchAttributes(address), { added: [], removed: [] }, 'a migrated database needs nothing more');
    // What an older build does at a run's start: a workflow started with Status set still starts.
    const client = new Client({ connection: await Connection.connect({ address }) });
    const handle = await client.workflow.start('olderBuildRun', {
      taskQueue: 'physvec-older-build',
      workflowId: `older-build-${Date.now()}`,
      typedSearchAttributes: [{ key: defineSearchAttributeKey('Status', 'KEYWORD'), value: 'running' }],
    });
    await handle.terminate('only its start was tested');
    assert.deepEqual(await migrateSearchAttributes(address, 'default', { retire: true }), { added: [], removed: ['Status'] }, 'retired on request');
    assert.ok(!(await customAttributes(address)).includes('Status'));
    await client.connection.close();
  } finally {
    await stopDevServer({ dir, port });
  }
});
