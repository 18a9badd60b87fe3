// The transcript of one attempt of one callLlm: every HTTP call (request, response or error, usage,
// latency), every tool call with its full output, and the attempt's usage. Written to the artifact
// store when the attempt ends, successful or not.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { HttpCallRecord, LlmCallKey, LlmExchange, LlmUsage, ToolCallRecord } from '../../schemas/llm.js';
import { addUsage, emptyUsage, estimatedPart } from '../../lib/llm/accounting.js';
import type { AttemptRecord } from '../../schemas/llm-call-details.js';
import { ProviderCallError, type ChatSession, type Turn, type TurnOptions } from './session.js';

export interface ExchangeContext {
  key: LlmCallKey;
  model: string;
  provider: string;
  scripted: boolean;
  attempt: number;
  workflowId?: string;
  runId?: string;
  activityId?: string;
  prior: AttemptRecord[];
}

export class ExchangeRecorder {
  readonly usage: LlmUsage = emptyUsage();
  readonly toolCalls: ToolCallRecord[] = [];
  private readonly calls: HttpCallRecord[] = [];
  private readonly toolOutputs: string[] = [];
  private readonly startedAt = new Date().toISOString();

  constructor(private readonly ctx: ExchangeContext, private readonly store: ArtifactStore) {}

  /** Send one turn, recording it whether it succeeds or throws. */
  async send(session: ChatSession, purpose: HttpCallRecord['purpose'], opts: TurnOptions): Promise<Turn> {
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    if (!session.scripted) this.usage.calls += 1;
    try {
      const turn = await session.send(opts);
      const latencyMs = Math.round(performance.now() - t0);
      this.add(turn.usage, latencyMs, turn.usageEstimated === true);
      this.calls.push({
        purpose, startedAt, latencyMs, request: turn.request, response: turn.response, usage: turn.usage,
        ...(turn.usageEstimated ? { usageEstimated: true as const } : {}),
        ...(turn.finishReason !== undefined && turn.finishReason !== null ? { finishReason: String(turn.finishReason) } : {}),
        ...(opts.maxOutputTokens !== undefined ? { maxOutputTokens: opts.maxOutputTokens } : {}),
      });
      return turn;
    } catch (err) {
      const latencyMs = Math.round(performance.now() - t0);
      this.add({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }, latencyMs, false);
      const e = err instanceof ProviderCallError ? err : undefined;
      this.calls.push({
        purpose,
        startedAt,
        latencyMs,
        request: e?.request,
        error: { kind: e?.kind ?? 'exception', status: e?.status, message: (err as Error)?.message ?? String(err), retryAfterMs: e?.retryAfterMs },
        usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
      });
      throw err;
    }
  }

  private add(u: { inputTokens: number; outputTokens: number; cachedInputTokens: number }, latencyMs: number, estimated: boolean): void {
    Object.assign(this.usage, addUsage(this.usage, { ...emptyUsage(), ...u, latencyMs, ...estimatedPart(estimated ? u.inputTokens + u.outputTokens : 0) }));
  }

  toolCall(record: ToolCallRecord, fullOutput: string): void {
    this.toolCalls.push(record);
    this.toolOutputs.push(fullOutput);
    this.usage.toolCalls += 1;
  }

  retried(): void {
    this.usage.retries += 1;
  }

  async write(outcome: { ok: true; text: string; parsed?: unknown } | { ok: false; type: string; message: string }, totalUsage: LlmUsage): Promise<ArtifactRef> {
    const { key, model, provider, scripted, attempt, workflowId, runId, activityId, prior } = this.ctx;
    const doc: LlmExchange = {
      kind: 'physvec.llm-exchange',
      version: 1,
      key,
      model,
      provider,
      scripted,
      workflowId,
      runId,
      activityId,
      attempt,
      startedAt: this.startedAt,
      outcome: outcome.ok ? 'ok' : 'error',
      ...(outcome.ok ? { answer: { text: outcome.text, parsed: outcome.parsed } } : { error: { type: outcome.type, message: outcome.message } }),
      httpCalls: this.calls,
      toolCalls: this.toolCalls,
      toolOutputs: this.toolOutputs,
      attemptUsage: { ...this.usage },
      priorAttempts: prior,
      totalUsage,
    };
    const name = `llm-exchange-${key.role}-${key.stage}-${key.iteration}-${key.seq}-attempt${attempt}.json`;
    return this.store.putJson(doc, name);
  }
}
