// Task-queue names. Pure data: safe to import from workflow code.
export const TASK_QUEUES = {
  /** Workflows, LLM calls and light activities (artifact I/O, reports). */
  orchestration: 'physvec-orchestration',
  /** Sandboxed simulation runs; scale out by starting more simulation workers on other hosts. */
  simulation: 'physvec-simulation',
  /** Full-size simulation runs (`reproduce --size full`), served by bigger hosts: `physvec worker --queue large`. */
  large: 'physvec-simulation-large',
} as const;
export type QueueName = keyof typeof TASK_QUEUES;
