// Activity proxies of the reproduction workflow: light pipeline steps on the orchestration queue,
// sandbox runs on the simulation queue.
import { proxyActivities } from '@temporalio/workflow';
import type { PipelineActivities, SimulationPipelineActivities } from '../../activities/pipeline/index.js';
import { LIGHT_ACTIVITY, SANDBOX_ACTIVITY } from '../../temporal-config/timeouts.js';
import { TASK_QUEUES } from '../../temporal-config/queues.js';

export const light = proxyActivities<PipelineActivities>({ ...LIGHT_ACTIVITY, taskQueue: TASK_QUEUES.orchestration });
export const sim = proxyActivities<SimulationPipelineActivities>({ ...SANDBOX_ACTIVITY, taskQueue: TASK_QUEUES.simulation });
