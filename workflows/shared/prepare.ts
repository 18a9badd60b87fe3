// The prepare step of every pipeline workflow. From PREPARE_POLICY_PATCH on it is scheduled with
// PREPARE_ACTIVITY (unlimited attempts within a deadline, an hour per attempt), so a host too busy
// to confirm the toolchain (a ToolchainBusy failure) delays the run instead of using up the five
// attempts of the light policy. Histories recorded before the patch replay with the light policy.
import { patched } from '@temporalio/workflow';
import type { PrepareInput } from '../../activities/pipeline/prepare-task.js';
import type { TaskContext } from '../../schemas/pipeline.js';
import { light, prepareLight } from './activities.js';

export const PREPARE_POLICY_PATCH = 'prepare-toolchain-busy-policy';

export function prepareTaskStep(input: PrepareInput): Promise<TaskContext> {
  return (patched(PREPARE_POLICY_PATCH) ? prepareLight : light).prepareTask(input);
}
