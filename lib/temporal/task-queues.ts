// The task queues this process (client or worker) uses: the family of PHYSVEC_QUEUE_PREFIX
// (default "physvec"). Workflows do not read this: they follow the queue they run on.
import { DEFAULT_QUEUE_PREFIX, queueFamily, type TaskQueues } from '../../temporal-config/queues.js';

export const QUEUE_PREFIX_ENV = 'PHYSVEC_QUEUE_PREFIX';

export function queuePrefix(env: NodeJS.ProcessEnv = process.env): string {
  const prefix = env[QUEUE_PREFIX_ENV]?.trim();
  return prefix ? prefix : DEFAULT_QUEUE_PREFIX;
}

export function taskQueues(env: NodeJS.ProcessEnv = process.env): TaskQueues {
  return queueFamily(queuePrefix(env));
}
