// Activity proxies of the campaign workflow. Recording a run must not be lost to a transient fault,
// so the store's writes retry without an attempt cap (bad input still fails at once).
import { proxyActivities } from '@temporalio/workflow';
import type { CampaignActivities } from '../../activities/campaign/index.js';
import type { ResultsActivities } from '../../schemas/campaign.js';
import { DEFAULT_RETRY, LIGHT_ACTIVITY } from '../../temporal-config/timeouts.js';
import { perQueue } from '../shared/queues.js';

export const planning = perQueue((q) => proxyActivities<CampaignActivities>({ ...LIGHT_ACTIVITY, taskQueue: q.orchestration }));

export const results = perQueue((q) =>
  proxyActivities<Omit<ResultsActivities, 'writeCampaignReport'>>({
    ...LIGHT_ACTIVITY,
    taskQueue: q.orchestration,
    retry: { ...DEFAULT_RETRY, maximumAttempts: Number.POSITIVE_INFINITY },
  }),
);

/** The report renders figures: give it longer, and a few attempts. */
export const reporting = perQueue((q) =>
  proxyActivities<Pick<ResultsActivities, 'writeCampaignReport'>>({
    taskQueue: q.orchestration,
    startToCloseTimeout: '15m',
    retry: { ...DEFAULT_RETRY, maximumAttempts: 5 },
  }),
);
