// Start a campaign workflow from the CLI (or a test, or the benchmark script): the campaign id is
// its workflow id, so `bench status <id>` and the Temporal UI name the same thing.
import { randomUUID } from 'node:crypto';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { CampaignSpec } from '../../schemas/campaign.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { SA } from '../../temporal-config/search-attributes.js';
import type { campaign } from '../../workflows/campaign/index.js';

export function newCampaignId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return `campaign-${stamp}-${randomUUID().slice(0, 6)}`;
}

export async function startCampaign(client: Client, spec: CampaignSpec): Promise<{ handle: WorkflowHandle<typeof campaign>; campaignId: string }> {
  const campaignId = spec.campaignId ?? newCampaignId();
  const handle = await client.workflow.start<typeof campaign>('campaign', {
    workflowId: campaignId,
    taskQueue: taskQueues().orchestration,
    args: [{ ...spec, campaignId }],
    typedSearchAttributes: [
      { key: SA.CampaignId, value: campaignId },
      { key: SA.Verdict, value: 'running' },
    ],
  });
  return { handle, campaignId };
}
