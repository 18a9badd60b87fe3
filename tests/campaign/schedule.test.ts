// Campaigns on a Temporal Schedule: a paused schedule with a far-future cron is triggered twice;
// each trigger starts its own campaign (id = the workflow id the schedule gave it, schedule id read
// from TemporalScheduledById), and the second campaign's report compares itself with the first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { repoRoot } from '../../lib/paths.js';
import { loadCampaignSpecFile } from '../../cli/runs/campaign-spec.js';
import { createCampaignSchedule, describeSchedule } from '../../cli/runs/campaign-schedule.js';
import { getCampaign } from '../../lib/results/store.js';
import { openResultsDb } from '../../lib/results/db.js';
import type { CampaignResult } from '../../workflows/campaign/progress.js';
import { CAMPAIGN_MODEL, missingPieces, quickTask, storedRuns, waitFor, withWorkers } from './support.js';

const cli = promisify(execFile);
const physvec = async (args: string[]) =>
  JSON.parse((await cli(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), ...args], { env: process.env, timeout: 120_000 })).stdout);

const pieces = missingPieces();
test('a schedule triggered twice: two campaigns, the second compared with the first', { timeout: 1_800_000, skip: pieces ? `campaign pieces missing: ${pieces}` : false }, async () => {
  await ensureServer();
  const { client, connection } = await testClient();
  const scheduleId = `test-sched-${Date.now().toString(36)}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-sched-'));
  const specFile = path.join(dir, 'campaign.json');
  writeFileSync(specFile, JSON.stringify({
    campaignId: 'ignored-for-schedules',
    selection: { ids: [quickTask()] },
    models: [CAMPAIGN_MODEL],
    frameworks: ['1-shot'],
    trials: 1,
    concurrency: 1,
  }));
  try {
    const spec = await loadCampaignSpecFile(specFile);
    await createCampaignSchedule(client, { scheduleId, spec, cron: '0 0 1 1 *', paused: true, overlap: 'skip', catchupWindow: '1m', specFile });
    const { description } = await describeSchedule(client, scheduleId);
    assert.equal(description.state.paused, true);
    assert.equal(description.action.workflowType, 'campaign');
    assert.equal(description.policies.catchupWindow, 60_000);
    assert.ok((description.action.args?.[0] as { campaignId?: string }).campaignId === undefined, 'a fixed campaign id is dropped');

    const campaigns: string[] = [];
    await withWorkers(async () => {
      for (let i = 0; i < 2; i++) {
        await client.schedule.getHandle(scheduleId).trigger();
        const id = await waitFor(`campaign ${i + 1} of the schedule`, async () => {
          const d = await client.schedule.getHandle(scheduleId).describe();
          return d.info.recentActions.length === i + 1 ? d.info.recentActions[i]!.action.workflow.workflowId : undefined;
        }, 60_000);
        campaigns.push(id);
        const result = (await client.workflow.getHandle(id).result()) as CampaignResult;
        assert.equal(result.campaignId, id, 'the campaign id is the workflow id the schedule gave it');
        assert.ok(id.startsWith(`${scheduleId}-`));
      }
    });
    const db = openResultsDb();
    const [first, second] = campaigns.map((id) => getCampaign(db, id)!);
    assert.equal(first!.scheduleId, scheduleId, 'the schedule id came from TemporalScheduledById');
    assert.equal(second!.scheduleId, scheduleId);
    assert.equal(first!.status, 'completed');
    assert.equal(storedRuns(campaigns[1]!).length, 1);
    const report = JSON.parse(readFileSync(path.join(path.dirname(second!.reportPath!), 'report.json'), 'utf8'));
    assert.equal(report.comparison.previous, campaigns[0], "the second report compares with the schedule's first campaign");
    const firstReport = JSON.parse(readFileSync(path.join(path.dirname(first!.reportPath!), 'report.json'), 'utf8'));
    assert.equal(firstReport.comparison.previous, null);

    const described = await physvec(['schedule', 'describe', scheduleId, '--json']);
    assert.deepEqual(described.recentCampaigns.map((c: { campaignId: string }) => c.campaignId), campaigns);
    assert.equal(described.cron, '0 0 1 1 *');
    assert.deepEqual(described.campaigns.map((c: { campaignId: string }) => c.campaignId).sort(), [...campaigns].sort());
    const listed = await physvec(['schedule', 'list', '--json']);
    assert.ok(listed.schedules.some((s: { scheduleId: string }) => s.scheduleId === scheduleId));
    await physvec(['schedule', 'delete', scheduleId, '--json']);
    await assert.rejects(describeSchedule(client, scheduleId), /no schedule/);
  } finally {
    await client.schedule.getHandle(scheduleId).delete().catch(() => {});
    await connection.close();
  }
});
