// Histories recorded from real runs (the demo reproduction, the smoke workflow) replay against the
// current workflow code: a change that breaks determinism fails here before it breaks a running campaign.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { repoRoot } from '../../lib/paths.js';
import { workflowBundle } from '../helpers/temporal.js';

const dir = path.join(repoRoot, 'tests/fixtures/histories');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

test('committed histories replay against the current workflow code', async () => {
  assert.ok(files.length > 0, `no recorded histories in ${dir}`);
  const histories = files.map((f) => ({ workflowId: path.basename(f, '.json'), history: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) }));
  const bundle = await workflowBundle();
  let replayed = 0;
  for await (const r of Worker.runReplayHistories({ workflowBundle: bundle }, histories)) {
    assert.equal(r.error, undefined, `${r.workflowId}: ${r.error}`);
    replayed++;
  }
  assert.equal(replayed, histories.length);
});
