// Activity proxies of the reference-validation workflow: the pipeline's light steps plus the
// validation's own (orchestration queue); sandbox runs are the shared `sim` proxy.
import { proxyActivities } from '@temporalio/workflow';
import type { PipelineActivities } from '../../activities/pipeline/index.js';
import type { ValidationActivities } from '../../activities/validation/index.js';
import { LIGHT_ACTIVITY } from '../../temporal-config/timeouts.js';
import { perQueue } from '../shared/queues.js';

export { sim } from '../shared/activities.js';
export const light = perQueue((q) => proxyActivities<PipelineActivities & ValidationActivities>({ ...LIGHT_ACTIVITY, taskQueue: q.orchestration }));
