// Workflow side of task-queue selection: activities and children go to the family of the queue the
// workflow itself runs on (temporal-config/queues.ts), so nothing here is a constant.
import { workflowInfo } from '@temporalio/workflow';
import { queuesOf, type TaskQueues } from '../../temporal-config/queues.js';

export function currentQueues(): TaskQueues {
  return queuesOf(workflowInfo().taskQueue);
}

/**
 * An object whose members are looked up, at call time, on `make(queues of this workflow)`. Lets
 * activity proxies stay module-level names (`light.prepareTask(…)`) without fixing a queue at import.
 * The proxies made are stateless, so one per queue name is kept.
 */
export function perQueue<T extends object>(make: (queues: TaskQueues) => T): T {
  const made = new Map<string, T>();
  const current = (): T => {
    const queues = currentQueues();
    let value = made.get(queues.orchestration);
    if (!value) {
      value = make(queues);
      made.set(queues.orchestration, value);
    }
    return value;
  };
  return new Proxy({} as T, {
    get(_target, name) {
      return (current() as Record<string | symbol, unknown>)[name];
    },
  });
}
