// A final run whose checkpoint was skipped at a limit says so in the report: one line in report.json
// (finalRun.checkpointSkipped) and one row of the verdict table in report.html.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { writeHostileReport } from './hostile-report.js';

test('a checkpoint limit breach of the final run is one line in report.json and report.html', async () => {
  const line = "this run's stored checkpoints would pass 2048 MiB (PHYSVEC_CHECKPOINT_MAX_STORED_MB); 3 snapshots skipped";
  const r = await writeHostileReport({ checkpointSkipped: line });
  const json = JSON.parse(readFileSync(r.jsonPath, 'utf8')) as { finalRun: { checkpointSkipped?: string } };
  assert.equal(json.finalRun.checkpointSkipped, line);
  const html = readFileSync(r.htmlPath, 'utf8');
  const row = html.split('<tr').find((tr) => tr.includes('PHYSVEC_CHECKPOINT_MAX_STORED_MB'));
  assert.ok(row, 'the breach is in a row of the verdict table');
  assert.match(row, /checkpoint/);
  assert.match(row, /not saved/);

  const clean = await writeHostileReport();
  assert.doesNotMatch(readFileSync(clean.htmlPath, 'utf8'), /not saved/, 'no row without a breach');
});
