// The prepare step of every pipeline workflow. From PREPARE_POLICY_PATCH on it is scheduled with
// PREPARE_ACTIVITY (unlimited attempts within a deadline, an hour per attempt), so a host too busy
// to confirm the toolchain (a ToolchainBusy failure) delays the run instead of using up the five
// attempts of the light policy. Histories recorded before the patch replay with the light policy.
import { patched } from '@temporalio/workflow';
import type { PrepareInput } from '../../activities/pipeline/prepare-task.js';
import type { TaskContext } from '../../schemas/pipeline.js';
import { light, prepareLight } from './activities.js';
import type { Agents } from './agents.js';
import type { TruthGuard } from '../../schemas/llm.js';

export const PREPARE_POLICY_PATCH = 'prepare-toolchain-busy-policy';

/** The prepared task; with `agents`, their prompts to script writers are guarded against its truths from now on. */
export async function prepareTaskStep(input: PrepareInput, agents?: Agents): Promise<TaskContext> {
  const ctx = await (patched(PREPARE_POLICY_PATCH) ? prepareLight : light).prepareTask(input);
  if (agents) agents.truthGuard = truthGuardOf(ctx);
  return ctx;
}

/** Every truth of the task, what the task states itself, the article (TeX only: a digest is ours) and its published values. */
export function truthGuardOf(ctx: TaskContext): TruthGuard {
  return {
    cases: [...ctx.limitingCases, ...ctx.scientificResults].map((c) => ({ id: c.id, truth: c.truth, content: c.content })),
    request: ctx.request,
    ...(ctx.sourceKind === 'tex' && ctx.sourceRef ? { articleRef: ctx.sourceRef } : {}),
    allowed: ctx.publishedValues ?? [],
  };
}
