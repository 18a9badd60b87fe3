// The Author agent as workflow steps, shared by the reproduction (PhysVEC), PhysVEC-1-shot and the
// ReAct baselines: a coder call until the script passes the structure check, optionally preceded by
// the PhysVEC plan and the documentation queries through the `retrieve` tool.
import { ApplicationFailure } from '@temporalio/workflow';
import type { LlmMessage } from '../../schemas/llm.js';
import type { ScriptSummary, TaskContext } from '../../schemas/pipeline.js';
import type { Agents } from '../shared/agents.js';
import { light } from '../shared/activities.js';
import { answerOf } from '../shared/answer.js';
import { planPrompt, querySummaryPrompt, scriptPrompt } from './author-prompts.js';

/**
 * Ask the coder (role `coder`, stage `author`, iteration = attempt) until its script passes the
 * structure check; each rejection goes back as feedback. `retries` extra attempts after the first.
 */
export async function writeStructuredScript(
  agents: Agents,
  ctx: TaskContext,
  retries: number,
  prompt: (feedback: string | undefined) => LlmMessage[],
): Promise<ScriptSummary> {
  let feedback: string | undefined;
  for (let attempt = 0; attempt <= retries; attempt++) {
    const answer = await agents.ask('coder', 'author', attempt, prompt(feedback), { outputSchema: 'script' });
    const accepted = await light.acceptScript({ answer: answerOf(answer), language: ctx.language });
    if (accepted.problems.length === 0) return accepted;
    feedback = accepted.problems.join('\n');
  }
  throw ApplicationFailure.nonRetryable(`the Author's script never passed the structure check: ${feedback}`, 'AuthorStructureError');
}

/** The PhysVEC Author (paper Sec. II): free-form plan → documentation queries answered with `retrieve` → script. */
export async function physvecAuthor(agents: Agents, ctx: TaskContext, retries: number): Promise<ScriptSummary> {
  const plan = await agents.ask('author', 'author', 0, planPrompt(ctx), { outputSchema: 'author-plan' });
  // A plan is a few paragraphs: it stays inline (lib/llm/limits.ts); without it the Author cannot go on.
  if (!plan.parsed) throw ApplicationFailure.nonRetryable("the Author's plan came back without its parsed answer", 'AuthorPlanError');
  const planOut = plan.parsed;
  const summaryAnswer = await agents.ask('author', 'author', 0, querySummaryPrompt(ctx, planOut.plan, planOut.queries), {
    outputSchema: 'query-summary',
    tools: [await light.retrieveToolSpec()],
  });
  const summaryJson = JSON.stringify(summaryAnswer.parsed ?? {}, null, 1).slice(0, 6000);
  return writeStructuredScript(agents, ctx, retries, (feedback) => scriptPrompt(ctx, planOut.plan, summaryJson, feedback));
}
