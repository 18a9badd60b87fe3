// Long campaigns continue as new after `childrenPerRun` children (draining the window first), and
// early stop skips the later trials of a group that passed; no key is lost or run twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { CampaignInput } from '../../schemas/campaign.js';
import { startCampaign } from '../../cli/runs/campaign-run.js';
import { planCampaign } from '../../activities/campaign/plan.js';
import type { CampaignResult } from '../../workflows/campaign/progress.js';
import { CAMPAIGN_MODEL, childStartsInHistory, missingPieces, quickTask, storedRuns, withWorkers } from './support.js';

const pieces = missingPieces();
test('continue-as-new every 2 children keeps every key exactly once; early stop skips passed groups', { timeout: 2_400_000, skip: pieces ? `campaign pieces missing: ${pieces}` : false }, async () => {
  await ensureServer();
  const { client, connection } = await testClient();
  try {
    await withWorkers(async () => {
      // 1. continue-as-new: 1 task × 3 baselines × 2 trials = 6 children, 2 per workflow run, 2 at a time.
      const spec = CampaignInput.parse({
        selection: { ids: [quickTask()] },
        models: [CAMPAIGN_MODEL],
        frameworks: ['1-shot', 'react', 'react-rag'],
        trials: 2,
        concurrency: 2,
        childrenPerRun: 2,
        passCriterion: 'executable',
      });
      const plan = await planCampaign(spec);
      const { handle, campaignId } = await startCampaign(client, spec);
      const result = (await handle.result()) as CampaignResult;
      const expectedRuns = Math.ceil(plan.length / 2);
      assert.equal(result.continuedAsNew, expectedRuns - 1, 'continued as new after every 2 children');
      const { starts, runs } = await childStartsInHistory(client, campaignId);
      assert.equal(runs, expectedRuns, 'workflow runs in the chain');
      assert.equal(starts.length, plan.length);
      assert.equal(new Set(starts).size, plan.length, 'no child started twice across runs');
      const records = storedRuns(campaignId);
      assert.deepEqual(records.map((r) => r.key).sort(), plan.map((k) => k.key).sort(), 'no key lost');
      assert.equal(result.counts.done + result.counts.failed + result.counts.skipped, plan.length, 'counters carried across runs');
      assert.equal(result.counts.done, records.filter((r) => r.outcome === 'done').length);

      // 2. early stop: with stopAfterPasses 1, a group whose first trial passed skips its second;
      // one that did not pass runs it.
      const stopSpec = CampaignInput.parse({ ...spec, childrenPerRun: 40, frameworks: ['physvec', '1-shot'], stopAfterPasses: 1 });
      const stopPlan = await planCampaign(stopSpec);
      const stopped = await startCampaign(client, stopSpec);
      const r2 = (await stopped.handle.result()) as CampaignResult;
      const recs = storedRuns(stopped.campaignId);
      assert.equal(recs.length, stopPlan.length, 'skipped runs are recorded too');
      const passedGroups: string[] = [];
      for (const framework of stopSpec.frameworks) {
        const t1 = recs.find((r) => r.framework === framework && r.trial === 1)!;
        const t2 = recs.find((r) => r.framework === framework && r.trial === 2)!;
        if (t1.outcome === 'done' && t1.metrics?.executable) {
          passedGroups.push(framework);
          assert.equal(t2.outcome, 'skipped', `${framework}: trial 2 skipped after trial 1 passed`);
          assert.equal(t2.metrics, null);
        } else assert.notEqual(t2.outcome, 'skipped', `${framework}: trial 2 ran because trial 1 did not pass`);
      }
      console.log(`# early stop: groups that passed at trial 1: ${passedGroups.join(', ') || 'none'}`);
      assert.equal(r2.counts.skipped, passedGroups.length);
    });
  } finally {
    await connection.close();
  }
});
