// The `callLlm` activity: one agent question → one answer, over any provider. It runs the tool-call
// loop and the schema re-asks itself, checks the budget before every HTTP call, records every
// attempt as an artifact, and reports usage summed over all of it (earlier Temporal attempts included).
import type { z } from 'zod';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { PhysvecConfig } from '../../schemas/config.js';
import { LlmRequest, type HttpCallRecord, type LlmFailureDetails, type LlmResult, type LlmUsage, type ToolSpec } from '../../schemas/llm.js';
import { llmOutputSchema } from '../../schemas/llm-outputs.js';
import { describeZodError } from '../../lib/errors.js';
import { addUsage } from '../../lib/llm/accounting.js';
import { costUsd, modelInfo } from '../../lib/llm/cost.js';
import { LLM_ERROR } from '../../lib/llm/failures.js';
import { callKeyString } from '../../lib/llm/keys.js';
import { TOOL_RESULT_PREVIEW_CHARS } from '../../lib/llm/limits.js';
import { isScriptedModel, parseModelId } from '../../lib/llm/model-id.js';
import { shapeAnswer } from './answer-shape.js';
import { activityContext, heartbeatLedger, lostAttempts, priorAttempts, sumAttempts, unavailableSince } from './attempt-ledger.js';
import { budgetRefusal, estimateCall } from './budget-guard.js';
import { PromptSize } from './prompt-size.js';
import { CassetteError, findEntry, loadCassette, loadRunCassette, noMatchMessage, resolveCassettePath } from './cassette.js';
import { EndpointError, missingKey, resolveEndpoint, type Env } from '../../lib/llm/endpoint.js';
import { LlmCallError, fatalWithoutUsage, isTransient, providerFailure, refusalFailure, type RetryFacts } from './errors.js';
import { ExchangeRecorder } from './exchange-recorder.js';
import { geminiSession } from './gemini.js';
import { resolveMessages } from './messages.js';
import { guardPrompt, TruthLeakBug } from './truth-guard.js';
import { openAiSession } from './openai.js';
import { scriptedLatencyMs, scriptedSession } from './scripted.js';
import { ProviderCallError, type ChatSession, type ResolvedMessage, type SessionInit, type Turn } from './session.js';
import { checkAnswer, reaskFeedback } from './structured.js';

/** Runs one tool for the model; the returned text goes back to the model as the tool's result. */
export type ToolExecutor = (args: unknown) => Promise<string>;

export interface LlmDeps {
  store: ArtifactStore;
  tools: Record<string, ToolExecutor>;
  config: PhysvecConfig;
  env: Env;
}

const HEARTBEAT_EVERY_MS = 10_000;

/** Re-asks with a larger output cap after an answer cut off by it (each doubles the cap, up to the model's maxOutputTokens). */
export const MAX_CUTOFF_REASKS = 3;

/** An HTTP call must end (with its own timeout error) this long before the attempt's startToClose would, so the failure says what happened. */
const ATTEMPT_MARGIN_MS = 10_000;

/** What the conversation loop knows when a call fails: the conversation's size, for a context-length failure. */
interface ConverseState {
  prompt?: PromptSize;
}

export async function callLlm(deps: LlmDeps, input: LlmRequest): Promise<LlmResult> {
  const checked = LlmRequest.safeParse(input);
  if (!checked.success) {
    // Nothing to account for yet: a malformed request is a bug in the calling workflow.
    throw fatalWithoutUsage(`callLlm: invalid request\n${describeZodError(checked.error, 'LlmRequest')}`);
  }
  const req = checked.data;
  const ctx = activityContext();
  const attempt = ctx?.info.attempt ?? 1;
  const prior = priorAttempts(ctx);
  const priorUsage = sumAttempts(prior);
  const scripted = isScriptedModel(req.model);
  const provider = parseModelId(req.model).provider;
  const info = modelInfo(deps.config.llm.models, req.model);
  const rec = new ExchangeRecorder(
    { key: req.key, model: req.model, provider, scripted, attempt, workflowId: ctx?.info.workflowExecution?.workflowId, runId: ctx?.info.workflowExecution?.runId, activityId: ctx?.info.activityId, prior },
    deps.store,
  );
  const total = (): LlmUsage => addUsage(priorUsage, rec.usage);
  const dollars = (u: LlmUsage) => (info ? costUsd(u, info) : 0);
  // Which call, and since when its provider has been failing (for `physvec status`).
  const callName = `${req.key.role} ${req.key.stage} #${req.key.iteration}`;
  const failingSince = unavailableSince(ctx);
  const beat = () => heartbeatLedger(ctx, prior, { attempt, usage: { ...rec.usage } }, { call: callName, unavailableSince: failingSince });
  const timer = ctx ? setInterval(beat, HEARTBEAT_EVERY_MS) : undefined;
  const state: ConverseState = {};
  // The attempt's own end (startToClose): each HTTP call's timeout stays below what is left of it.
  const info0 = ctx?.info;
  const attemptEnd = info0 && info0.startToCloseTimeoutMs > 0 ? info0.currentAttemptScheduledTimestampMs + info0.startToCloseTimeoutMs : undefined;
  const retryFacts: RetryFacts | undefined = info0
    ? { attempt, scheduledTimestampMs: info0.scheduledTimestampMs, scheduleToCloseTimeoutMs: info0.scheduleToCloseTimeoutMs, retryPolicy: info0.retryPolicy }
    : undefined;

  try {
    const answer = await converse(deps, req, rec, total, beat, ctx?.cancellationSignal, state, attemptEnd);
    const usage = total();
    const exchangeRef = await rec.write({ ok: true, text: answer.text, parsed: answer.parsed }, usage);
    heartbeatLedger(ctx, prior, { attempt, usage: { ...rec.usage }, exchangeRef });
    const k = req.key;
    const shaped = await shapeAnswer(deps.store, answer.text, req.outputSchema !== undefined, answer.parsed, `llm-answer-${k.role}-${k.stage}-${k.iteration}-${k.seq}`);
    return {
      ...shaped,
      toolCalls: rec.toolCalls,
      usage,
      costUsd: dollars(usage),
      priced: info !== undefined,
      model: req.model,
      provider,
      scripted,
      exchangeRef,
      attempt,
      ...(attempt > 1 ? { lostAttempts: lostAttempts(attempt, prior) } : {}),
    };
  } catch (err) {
    const cancelled = err instanceof ProviderCallError && err.kind === 'cancelled';
    const transient = err instanceof ProviderCallError && isTransient(err);
    if (transient) rec.retried();
    const usage = total();
    const details = (exchangeRef?: LlmFailureDetails['exchangeRef']): LlmFailureDetails => ({ key: req.key, model: req.model, usage, costUsd: dollars(usage), exchangeRef });
    // The failure is decided first (its type and message go into the transcript), then given the transcript's reference.
    const decide = (d: LlmFailureDetails) => {
      if (err instanceof LlmCallError) return refusalFailure(err, d);
      if (err instanceof CassetteError) return refusalFailure(new LlmCallError(LLM_ERROR.cassette, err.message), d);
      if (err instanceof ProviderCallError && !cancelled) {
        const ep = scripted ? undefined : safeEndpoint(deps, req.model);
        const ctxInfo = { modelId: req.model, provider, baseUrl: ep?.baseUrl, apiKeyEnv: ep?.apiKeyEnv ?? null, role: req.key.role, prompt: state.prompt?.describe(), contextWindow: info?.contextWindow, retry: retryFacts };
        return providerFailure(err, ctxInfo, d);
      }
      return undefined;
    };
    const provisional = decide(details());
    const type = provisional?.type ?? failureType(err);
    const message = provisional?.message ?? (err as Error)?.message ?? String(err);
    // The transcript is evidence, but losing it must not hide the error that ended the call.
    const exchangeRef = await rec.write({ ok: false, type, message }, usage).catch(() => undefined);
    heartbeatLedger(ctx, prior, { attempt, usage: { ...rec.usage }, exchangeRef }, { call: callName, unavailableSince: transient ? (failingSince ?? Date.now()) : undefined });
    if (cancelled) throw ctx?.cancellationSignal.reason ?? err;
    throw decide(details(exchangeRef)) ?? err; // undefined: unexpected (store I/O, a bug), an ordinary retryable activity failure
  } finally {
    if (timer) clearInterval(timer);
  }
}

async function guardedMessages(deps: LlmDeps, req: LlmRequest): Promise<LlmRequest['messages']> {
  if (!req.truthGuard) return req.messages;
  const who = `${req.key.role} (call ${callKeyString(req.key)})`;
  try {
    const g = await guardPrompt(req.messages, deps.store, req.truthGuard, who);
    if (g.redacted.length) {
      activityContext()?.log.warn(`truth guard: withheld ${g.redacted.length} truth value(s) from the prompt to ${who}: ${g.redacted.map((l) => `${l.file}: ${l.case} ${l.found}`).join('; ')}`);
    }
    return g.messages;
  } catch (err) {
    if (err instanceof TruthLeakBug) throw new LlmCallError(LLM_ERROR.fatal, err.message);
    throw err;
  }
}

function failureType(err: unknown): string {
  if (err instanceof LlmCallError) return err.type;
  if (err instanceof CassetteError) return LLM_ERROR.cassette;
  if (err instanceof ProviderCallError) return isTransient(err) ? LLM_ERROR.transient : LLM_ERROR.fatal;
  return (err as Error)?.name ?? 'Error';
}

function safeEndpoint(deps: LlmDeps, model: string) {
  try {
    return resolveEndpoint(deps.config, deps.env, model);
  } catch {
    return undefined;
  }
}

interface Answer {
  text: string;
  parsed?: unknown;
}

async function converse(
  deps: LlmDeps,
  req: LlmRequest,
  rec: ExchangeRecorder,
  spent: () => LlmUsage,
  beat: () => void,
  signal: AbortSignal | undefined,
  state: ConverseState,
  attemptEnd: number | undefined,
): Promise<Answer> {
  const llm = deps.config.llm;
  const schema = req.outputSchema !== undefined ? lookupSchema(req.outputSchema) : undefined;
  checkTools(req.tools, deps.tools);
  if (!req.messages.some((m) => m.role === 'user')) throw new LlmCallError(LLM_ERROR.fatal, 'callLlm: the request has no user message');

  let messages: ResolvedMessage[];
  // Script-writing roles: no truth of the task may reach them (a claim sentence fails the call, a value is withheld).
  const guarded = await guardedMessages(deps, req);
  try {
    messages = await resolveMessages(guarded, deps.store);
  } catch (err) {
    throw new LlmCallError(LLM_ERROR.fatal, `callLlm: a message refers to an artifact that cannot be read: ${(err as Error).message}`);
  }
  // Provider-independent size of the conversation, grown with tool results and re-asks (budget estimate).
  const prompt = new PromptSize(req.model);
  for (const m of messages) prompt.add([m.text]);
  if (req.tools) prompt.add([JSON.stringify(req.tools)]);
  state.prompt = prompt;
  // The cap sent with the next turn: the request's, raised after a cut-off answer (never re-sent under the same cap).
  let cap = req.maxOutputTokens;
  let outputCap = cap ?? llm.outputTokensEstimate;
  const info = modelInfo(llm.models, req.model);
  const guard = () => {
    const refusal = budgetRefusal(req.budget, spent(), estimateCall(prompt.tokens, outputCap), info, req.model);
    if (refusal) throw new LlmCallError(refusal.fatal ? LLM_ERROR.fatal : LLM_ERROR.budget, `budget exhausted at ${callKeyString(req.key)}: ${refusal.message}`);
  };
  guard();

  const init: SessionInit = {
    messages,
    tools: req.tools,
    structured: schema ? { name: req.outputSchema!, schema } : undefined,
    temperature: req.temperature,
    maxOutputTokens: req.maxOutputTokens,
  };
  const session = await openSession(deps, req, init);

  let round = 0;
  let reasks = 0;
  let cutoffs = 0;
  let purpose: HttpCallRecord['purpose'] = 'answer';
  const who = `${req.model} (role ${req.key.role}, call ${callKeyString(req.key)})`;
  for (;;) {
    const toolsAllowed = !!req.tools?.length && round < llm.maxToolRounds;
    if (req.tools?.length && !toolsAllowed && purpose !== 'larger-cap') purpose = 'final-without-tools';
    const turn = await rec.send(session, purpose, { toolChoice: toolsAllowed ? 'auto' : 'none', signal, maxOutputTokens: cap, timeoutMs: turnTimeout(deps, req.model, attemptEnd) });
    beat();

    if (turn.refusal !== undefined) {
      throw new LlmCallError(LLM_ERROR.refusal, `${who} refused: ${turn.refusal.length > 500 ? `${turn.refusal.slice(0, 500)}…` : turn.refusal}`);
    }
    if (turn.truncated && !session.scripted) {
      const sent = cap ?? Math.max(turn.usage.outputTokens, 1);
      const limit = info?.maxOutputTokens;
      const why = `finish reason ${JSON.stringify(turn.finishReason ?? 'length')}`;
      if (limit !== undefined && sent >= limit) {
        throw new LlmCallError(LLM_ERROR.truncated, `${who}: answer cut off at ${sent} output tokens (${why}), the model's limit (llm.models maxOutputTokens): ask for a shorter answer or use a model with a larger output limit`);
      }
      if (cutoffs >= MAX_CUTOFF_REASKS) {
        throw new LlmCallError(LLM_ERROR.truncated, `${who}: answer cut off at ${sent} output tokens (${why}) after ${cutoffs} larger cap(s): ask for a shorter answer, or set the model's maxOutputTokens in physvec.config.json (llm.models) if it allows more`);
      }
      cap = limit !== undefined ? Math.min(2 * sent, limit) : 2 * sent;
      outputCap = cap;
      cutoffs++;
      rec.retried();
      purpose = 'larger-cap';
      guard();
      continue;
    }

    if (turn.toolCalls.length && toolsAllowed) {
      for (const added of await runTools(deps, req, session, turn, round, rec)) prompt.add(added);
      round++;
      purpose = 'tool-round';
      guard();
      continue;
    }
    if (turn.toolCalls.length && session.scripted) {
      throw new CassetteError(`scripted model: the cassette entry for ${callKeyString(req.key)} calls tools, but the request offers ${req.tools?.length ? `only ${llm.maxToolRounds} tool rounds` : 'no tools'}`);
    }
    if (turn.toolCalls.length && !turn.text) {
      throw new LlmCallError(LLM_ERROR.fatal, `${req.model} kept calling tools after ${round} rounds and gave no answer (raise llm.maxToolRounds?)`);
    }
    if (!schema) return { text: turn.text };

    const check = checkAnswer(turn.text, schema, turn.json);
    if (check.ok) return { text: turn.text, parsed: check.value };
    if (session.scripted) {
      throw new LlmCallError(LLM_ERROR.schema, `scripted model: the cassette answer for ${callKeyString(req.key)} does not fit outputSchema "${req.outputSchema}": ${check.error}`);
    }
    if (reasks >= llm.structuredRetries) {
      throw new LlmCallError(LLM_ERROR.schema, `${who}: the answer did not match outputSchema "${req.outputSchema}" after ${reasks + 1} tries: ${check.error}`);
    }
    reasks++;
    rec.retried();
    const feedback = reaskFeedback(check.error);
    session.addReask(turn, feedback);
    prompt.add([turn.text]);
    prompt.add([feedback]);
    purpose = 'reask';
    guard();
  }
}

/** This turn's HTTP timeout: the endpoint's, cut so it ends ATTEMPT_MARGIN_MS before the attempt's startToClose. */
function turnTimeout(deps: LlmDeps, model: string, attemptEnd: number | undefined): number | undefined {
  if (isScriptedModel(model)) return undefined;
  const configured = safeEndpoint(deps, model)?.timeoutMs;
  if (configured === undefined || attemptEnd === undefined) return configured;
  const left = attemptEnd - Date.now() - ATTEMPT_MARGIN_MS;
  // A deadline already past (a test's mock info) says nothing about this call.
  return left > 0 ? Math.min(configured, Math.max(1000, left)) : configured;
}

function lookupSchema(name: string): z.ZodType {
  try {
    return llmOutputSchema(name);
  } catch (err) {
    throw new LlmCallError(LLM_ERROR.fatal, `callLlm: ${(err as Error).message}`);
  }
}

function checkTools(tools: ToolSpec[] | undefined, executors: Record<string, ToolExecutor>): void {
  const missing = (tools ?? []).map((t) => t.name).filter((n) => !executors[n]);
  if (missing.length) {
    throw new LlmCallError(
      LLM_ERROR.fatal,
      `callLlm: no executor for tool(s) ${missing.join(', ')} on this worker (it has: ${Object.keys(executors).join(', ') || 'none'}); pass them to createLlmActivities({ tools })`,
    );
  }
}

async function openSession(deps: LlmDeps, req: LlmRequest, init: SessionInit): Promise<ChatSession> {
  if (isScriptedModel(req.model)) {
    const file = resolveCassettePath(parseModelId(req.model).model, deps.config.llm.cassettesDir);
    // Within a workflow the cassette is pinned at the run's first call: a deploy cannot change its answers.
    const runKey = activityContext()?.info.workflowExecution?.workflowId;
    const cassette = runKey ? await loadRunCassette(deps.store, runKey, file) : loadCassette(file);
    const entry = findEntry(cassette, req.key);
    if (!entry) throw new CassetteError(noMatchMessage(cassette, req.key, file));
    for (const call of (entry.rounds ?? []).flatMap((r) => r.toolCalls)) {
      if (!req.tools?.some((t) => t.name === call.name)) {
        throw new CassetteError(`scripted model: the cassette entry for ${callKeyString(req.key)} in ${file} calls tool "${call.name}", which the request does not offer`);
      }
    }
    let latencyMs: number;
    try {
      latencyMs = scriptedLatencyMs(deps.env);
    } catch (err) {
      throw new LlmCallError(LLM_ERROR.fatal, (err as Error).message);
    }
    return scriptedSession(entry, file, { latencyMs });
  }
  let ep;
  try {
    ep = resolveEndpoint(deps.config, deps.env, req.model);
  } catch (err) {
    if (err instanceof EndpointError) throw new LlmCallError(LLM_ERROR.fatal, err.message);
    throw err;
  }
  const missing = missingKey(ep);
  if (missing) throw new LlmCallError(LLM_ERROR.fatal, `${req.model}: ${missing} is not set; set ${missing} to an API key for provider "${ep.alias}" (see llm.providers in physvec.config.json)`);
  const common = { alias: ep.alias, model: ep.model, apiKey: ep.apiKey, baseUrl: ep.baseUrl, timeoutMs: ep.timeoutMs, supportsTemperature: ep.info?.supportsTemperature ?? true };
  return ep.provider.kind === 'gemini' ? geminiSession(common, init) : openAiSession({ ...common, config: ep.provider }, init);
}

/** Runs a round's tool calls (in parallel), hands the results to the session; returns the characters added. */
async function runTools(deps: LlmDeps, req: LlmRequest, session: ChatSession, turn: Turn, round: number, rec: ExchangeRecorder): Promise<string[][]> {
  const offered = new Set((req.tools ?? []).map((t) => t.name));
  const results = await Promise.all(
    turn.toolCalls.map(async (call) => {
      let output: string;
      if (call.argsError) output = `error: ${call.argsError}`;
      else if (!offered.has(call.name)) output = `error: there is no tool named "${call.name}"; available: ${[...offered].join(', ')}`;
      else {
        try {
          output = await deps.tools[call.name]!(call.args);
        } catch (err) {
          output = `error: the tool failed: ${(err as Error)?.message ?? String(err)}`;
        }
      }
      return { call, output };
    }),
  );
  for (const { call, output } of results) {
    rec.toolCall({ round, name: call.name, args: call.args, resultPreview: output.slice(0, TOOL_RESULT_PREVIEW_CHARS) }, output);
  }
  session.addToolResults(turn, results);
  // What the conversation grew by: each call's arguments (in the model's turn) and its result.
  return results.map((r) => [JSON.stringify(r.call.args ?? null), r.output]);
}
