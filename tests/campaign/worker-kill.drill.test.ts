// Durability of a campaign: kill -9 the worker process (orchestration and simulation) while children
// run, start a new one, and the campaign completes with exactly one record per planned run and no
// child workflow started twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { CampaignInput, type CampaignProgress } from '../../schemas/campaign.js';
import { startCampaign } from '../../cli/runs/campaign-run.js';
import { planCampaign } from '../../activities/campaign/plan.js';
import type { CampaignResult } from '../../workflows/campaign/progress.js';
import { CAMPAIGN_MODEL, childExecutions, childStartsInHistory, missingPieces, quickTask, spawnWorker, storedRuns, waitFor } from './support.js';

const pieces = missingPieces();
test('killing the worker mid-campaign loses and repeats no run', { timeout: 2_400_000, skip: pieces ? `campaign pieces missing: ${pieces}` : false }, async () => {
  await ensureServer();
  const { client, connection } = await testClient();
  const spec = CampaignInput.parse({
    selection: { ids: [quickTask()] },
    models: [CAMPAIGN_MODEL],
    frameworks: ['physvec', '1-shot'],
    trials: 2,
    concurrency: 2,
    passCriterion: 'executable',
  });
  const plan = await planCampaign(spec);
  let worker = spawnWorker();
  try {
    const { handle, campaignId } = await startCampaign(client, spec);
    // Kill once a run is recorded and others are in flight: some children mid-activity, one done.
    const at = await waitFor('a recorded run with others in flight', async () => {
      const p = await handle.query<CampaignProgress>('progress');
      return p.done + p.failed >= 1 && p.running >= 1 ? p : undefined;
    }, 1_200_000, 300);
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    console.log(`# killed the worker at ${at.done + at.failed}/${at.planned} recorded, in flight: ${at.inFlight.join(', ')}`);
    await new Promise((r) => setTimeout(r, 2000));
    worker = spawnWorker();

    const result = (await handle.result()) as CampaignResult;
    assert.equal(result.planned, plan.length);
    const records = storedRuns(campaignId);
    assert.deepEqual(records.map((r) => r.key).sort(), plan.map((k) => k.key).sort(), 'exactly one record per planned key');
    assert.deepEqual(records.filter((r) => r.outcome !== 'done').map((r) => `${r.key}: ${r.metrics?.message}`), [], 'every run completed despite the kill');
    const { starts } = await childStartsInHistory(client, campaignId);
    assert.equal(starts.length, plan.length, 'one child start per planned run in the history');
    assert.equal(new Set(starts).size, starts.length, 'no child workflow id started twice');
    const executions = await waitFor('visibility of all children', async () => {
      const xs = await childExecutions(client, campaignId);
      return xs.length >= plan.length && xs.every((x) => x.status !== 'RUNNING') ? xs : undefined;
    }, 60_000);
    assert.equal(executions.length, plan.length, 'one execution per child workflow id (no rerun)');
    assert.equal(new Set(executions.map((x) => x.workflowId)).size, plan.length);
  } finally {
    worker.kill('SIGKILL');
    await connection.close();
  }
});
