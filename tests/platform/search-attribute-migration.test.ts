// A dev-server database made by an older version (custom attribute `Status`, no `Verdict`): `start-dev`
// alone keeps its old attributes, so startDevServer migrates it — Verdict added, Status removed —
// and a second start changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { freePort } from '../../lib/net/free-port.js';
import { temporalBin } from '../../lib/paths.js';
import { migrateSearchAttributes, startDevServer, stopDevServer, waitHealthy } from '../../lib/temporal/dev-server.js';

async function customAttributes(address: string): Promise<string[]> {
  const r = await execa(temporalBin, ['operator', 'search-attribute', 'list', '--address', address, '-o', 'json']);
  return Object.keys(JSON.parse(r.stdout).customAttributes ?? {}).sort();
}

test('an old database with Status is migrated to Verdict at start', { timeout: 180_000 }, async () => {
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
    assert.ok(!now.includes('Status'), `Status removed: ${now.join(', ')}`);
    assert.ok(now.includes('CampaignId') && now.includes('TaskId'));
    assert.deepEqual(await migrateSearchAttributes(address), { added: [], removed: [] }, 'a migrated database needs nothing more');
  } finally {
    await stopDevServer({ dir, port });
  }
});
