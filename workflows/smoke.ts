// The platform's smoke reproduction: its only stage runs one given script in the sandbox on the
// simulation queue. Used by `physvec demo --smoke`, the platform tests and the overhead benchmark.
import { proxyActivities, defineQuery, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { SandboxActivities } from '../activities/sandbox/run-script.js';
import type { SandboxRequestInput, SandboxResult } from '../schemas/sandbox.js';
import { currentQueues } from './shared/queues.js';
import type { RunStatus, Verdict } from '../schemas/verdict.js';
import { SANDBOX_ACTIVITY } from '../temporal-config/timeouts.js';
import { markStage, markStatus } from './shared/stage.js';

export interface SmokeInput {
  taskId: string;
  topic: string;
  request: SandboxRequestInput;
  /** Optional durable wait before the run (exercises timers across server restarts). */
  waitSeconds?: number;
}

export interface SmokeProgress {
  stage: 'waiting' | 'run' | 'done';
  status: RunStatus;
}

export interface SmokeResult {
  taskId: string;
  status: Extract<Verdict, 'passed' | 'failed'>;
  workflowId: string;
  run: SandboxResult;
}

export const smokeProgressQuery = defineQuery<SmokeProgress>('progress');

export async function smokeReproduction(input: SmokeInput): Promise<SmokeResult> {
  const progress: SmokeProgress = { stage: 'waiting', status: 'running' };
  setHandler(smokeProgressQuery, () => progress);
  const { runScript } = proxyActivities<SandboxActivities>({ ...SANDBOX_ACTIVITY, taskQueue: currentQueues().simulation });

  if (input.waitSeconds) {
    markStage('waiting');
    await sleep(input.waitSeconds * 1000);
  }
  progress.stage = 'run';
  markStage('run');
  const run = await runScript(input.request);
  const status: SmokeResult['status'] = run.exitCode === 0 && !run.timedOut ? 'passed' : 'failed';
  progress.stage = 'done';
  progress.status = status;
  markStage('done', 0, status);
  markStatus(status);
  return { taskId: input.taskId, status, workflowId: workflowInfo().workflowId, run };
}
