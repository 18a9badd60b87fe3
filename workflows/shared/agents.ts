// One place where workflows talk to models: call keys (role/stage/iteration/seq), the per-role model
// choice, the budget, and the ledger of tokens and dollars. An answer comes back typed by the output
// schema it was asked for.
import { patched, proxyActivities } from '@temporalio/workflow';
import type { LlmActivities } from '../../activities/llm/index.js';
import type { LlmMessage, LlmLedger, LlmResult, ToolSpec, TruthGuard } from '../../schemas/llm.js';
import { llmOutputSchemas, type LlmOutput, type LlmOutputName } from '../../schemas/llm-outputs.js';
import type { ModelChoice } from '../../schemas/pipeline.js';
import { SCRIPT_WRITING_ROLES, type AgentRole, type WorkflowStage } from '../../schemas/agent-roles.js';
import { CallSequencer } from '../../lib/llm/keys.js';
import { emptyLedger, recordCall } from '../../lib/llm/accounting.js';
import { remainingBudget, budgetSpent, type BudgetLimit } from '../../lib/llm/budget.js';
import { isBudgetExhausted, llmFailureDetails } from '../../lib/llm/failures.js';
import { LLM_ACTIVITY } from '../../temporal-config/timeouts.js';
import { perQueue } from './queues.js';

const llm = perQueue((q) => proxyActivities<LlmActivities>({ ...LLM_ACTIVITY, taskQueue: q.orchestration }));

/** From this patch on, a run with a deadline gives each LLM call the time left to it (histories before it replay with 30 min). */
export const LLM_RUN_DEADLINE_PATCH = 'llm-run-deadline';
/** A run started without a deadline (campaign children, baselines): a day from its start, as the config's default. */
const DEFAULT_RUN_DEADLINE_MS = 24 * 3600_000;
/** The least an LLM call is given, even past the run's deadline: one real attempt and its retry, so the failure says what happened. */
const MIN_CALL_DEADLINE_MS = 120_000;

/** Thrown inside the workflow when the budget is spent; the workflow ends with status budget_exhausted. */
export class BudgetStop extends Error {
  override name = 'BudgetStop';
  constructor(readonly stage: string) {
    super(`budget exhausted during stage ${stage}`);
  }
}

export interface AskOptions<N extends LlmOutputName> {
  outputSchema: N;
  temperature?: number;
  tools?: ToolSpec[];
  maxOutputTokens?: number;
}

/**
 * An answer whose `parsed` the LLM activity validated against schema N (absent when it was too big
 * for the history: then it is in `parsedRef`, which activities read).
 */
export type TypedAnswer<N extends LlmOutputName> = Omit<LlmResult, 'parsed'> & { parsed?: LlmOutput<N> };

export class Agents {
  ledger: LlmLedger = emptyLedger();
  readonly sequencer = new CallSequencer();
  scripted = false;
  llmActivities = 0;
  /** Set once the task is prepared: what the LLM activity checks every script writer's prompt against. */
  truthGuard?: TruthGuard;

  /** When the run's deadline passes (its start + budget.deadlineMs, else a day): LLM calls retry a provider outage until then. */
  private readonly deadlineAt: number;

  constructor(private readonly models: ModelChoice, private readonly budget: BudgetLimit & { deadlineMs?: number }) {
    this.deadlineAt = Date.now() + (budget.deadlineMs ?? DEFAULT_RUN_DEADLINE_MS);
  }

  /** The call's scheduleToClose: the time left to the run's deadline (the run's only limit on an outage); LLM_ACTIVITY's 30 min in histories before the patch. */
  private callDeadline(): { scheduleToCloseTimeout?: number } {
    if (!patched(LLM_RUN_DEADLINE_PATCH)) return {};
    return { scheduleToCloseTimeout: Math.max(MIN_CALL_DEADLINE_MS, this.deadlineAt - Date.now()) };
  }

  modelFor(role: AgentRole): string {
    return this.models.roles[role] ?? this.models.defaultModel;
  }

  async ask<N extends LlmOutputName>(role: AgentRole, stage: WorkflowStage, iteration: number, messages: LlmMessage[], opts: AskOptions<N>): Promise<TypedAnswer<N>> {
    if (budgetSpent(this.budget, this.ledger)) throw new BudgetStop(stage);
    const key = this.sequencer.next(role, stage, iteration);
    const model = this.modelFor(role);
    this.llmActivities++;
    try {
      // The summary names the call in the Temporal UI: "LLM author/author 0 #1 (scripted:…)".
      const summary = `LLM ${role}/${stage} ${iteration} #${key.seq} (${model})`.slice(0, 200);
      const guard = this.truthGuard && SCRIPT_WRITING_ROLES.includes(role) ? { truthGuard: this.truthGuard } : {};
      const r = await llm.callLlm.executeWithOptions({ summary, ...this.callDeadline() }, [{ key, model, messages, ...opts, ...guard, budget: remainingBudget(this.budget, this.ledger) }]);
      this.ledger = recordCall(this.ledger, key, r);
      this.scripted ||= r.scripted;
      // The activity validated the answer against the same schema; parsing it again here types it
      // (pure computation: no command).
      const parsed = r.parsed === undefined ? undefined : (llmOutputSchemas[opts.outputSchema].parse(r.parsed) as LlmOutput<N>);
      return { ...r, parsed };
    } catch (err) {
      const spent = llmFailureDetails(err);
      if (spent) this.ledger = recordCall(this.ledger, key, { ...spent, failed: true });
      if (isBudgetExhausted(err)) throw new BudgetStop(stage);
      throw err;
    }
  }
}
