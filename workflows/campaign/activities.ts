// Activity proxies of the campaign workflow. Recording a run must not be lost to a transient fault,
// so the store's writes retry without an attempt cap (bad input still fails at once).
import { proxyActivities } from '@temporalio/workflow';
import type { CampaignActivities } from '../../activities/campaign/index.js';
import type { ResultsActivities } from '../../schemas/campaign.js';
import { DEFAULT_RETRY, LIGHT_ACTIVITY } from '../../temporal-config/timeouts.js';
import { TASK_QUEUES } from '../../temporal-config/queues.js';

const queue = { taskQueue: TASK_QUEUES.orchestration };

export const planning = proxyActivities<CampaignActivities>({ ...LIGHT_ACTIVITY, ...queue });

export const results = proxyActivities<Omit<ResultsActivities, 'writeCampaignReport'>>({
  ...LIGHT_ACTIVITY,
  ...queue,
  retry: { ...DEFAULT_RETRY, maximumAttempts: Number.POSITIVE_INFINITY },
});

/** The report renders figures: give it longer, and a few attempts. */
export const reporting = proxyActivities<Pick<ResultsActivities, 'writeCampaignReport'>>({
  ...queue,
  startToCloseTimeout: '15m',
  retry: { ...DEFAULT_RETRY, maximumAttempts: 5 },
});
