// The repair step, written once for every loop that repairs a script: the repairer (a verifier's, or
// ReAct's) answers with whole functions to replace and its suggestion list; the edit is applied by an
// activity (structure re-checked, diff kept). The prompt is the caller's: each verifier feeds back
// what it found.
import { ActivityFailure } from '@temporalio/workflow';
import type { LlmMessage, ToolSpec } from '../../schemas/llm.js';
import type { RepairRecord, ScriptSummary } from '../../schemas/pipeline.js';
import type { AgentRole, WorkflowStage } from '../../schemas/agent-roles.js';
import type { Agents } from '../shared/agents.js';
import { light } from '../shared/activities.js';
import { answerOf } from '../shared/answer.js';

export interface RepairRequest {
  role: Extract<AgentRole, 'repairer' | 'react-repairer'>;
  stage: WorkflowStage;
  iteration: number;
  script: ScriptSummary;
  prompt: LlmMessage[];
  /** Functions the repair is held to (the diff is checked against them), most suspicious first. */
  suspects?: string[];
  tools?: ToolSpec[];
}

/** A repair that was applied, or (when the caller keeps its script on failure) why it could not be. */
export type RepairStep = { applied: RepairRecord } | { unapplied: string };

/**
 * Ask for the repair and apply it. With `keepScriptWhenUnappliable`, a repair the activity refuses
 * (e.g. it rewrites a function into something else) wastes the iteration and the script stays as it
 * was — as a broken edit would in any agent loop; otherwise the refusal ends the run.
 */
export async function repair(agents: Agents, r: RepairRequest, opts: { keepScriptWhenUnappliable?: boolean } = {}): Promise<RepairStep> {
  const fix = await agents.ask(r.role, r.stage, r.iteration, r.prompt, { outputSchema: 'repair', ...(r.tools ? { tools: r.tools } : {}) });
  let outcome;
  try {
    outcome = await light.applyRepair({ summary: r.script, answer: answerOf(fix), ...(r.suspects?.length ? { suspects: r.suspects } : {}) });
  } catch (err) {
    if (!opts.keepScriptWhenUnappliable || !(err instanceof ActivityFailure)) throw err;
    return { unapplied: (err.cause?.message ?? err.message).slice(0, 500) };
  }
  return { applied: { stage: r.stage, iteration: r.iteration, outcome, suggestions: fix.parsed?.suggestions ?? [] } };
}
