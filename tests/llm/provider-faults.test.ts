// The faults real model providers produce, injected by the loopback fake servers and met by the real
// `openai` and `@google/genai` SDKs inside the real callLlm activity (run in Temporal's
// MockActivityEnvironment where the activity's retry facts matter; no Temporal server). One table per
// fault, each row run for both providers:
//   a. transient faults retried for as long as the call's deadline allows, with a true message;
//      401/403/context length/schema never valid end at once
//   b. a response without usage is estimated (never 0 tokens), marked so, and budgets say so
//   c. model faults exit 1 (the run failed), not 2 (bad input)
//   d. refusals are typed refusal failures, not re-asked as invalid JSON
//   e. a cut-off answer is re-asked under a larger output cap, never the same one
//   f. the per-call HTTP timeout is well below the activity's startToClose and cut to what is left of it
// run-tests: mostly waits (alone, ~5 % of two cores: retry back-offs), so it also runs beside the CPU-bound files (scripts/run-tests.ts).
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import type { Info } from '@temporalio/activity';
import { msToNumber } from '@temporalio/common/lib/time.js';
import { startFakeOpenAI, chatReply, openAiError, openAiContextLength } from '../helpers/fake-openai-server.js';
import { startFakeGemini, geminiReply, geminiError, geminiBlockedPrompt } from '../helpers/fake-gemini-server.js';
import type { FakeLlmServer, FakeReply, ReceivedRequest } from '../helpers/fake-llm-http.js';
import { activities, GEMINI_KEY, OPENAI_KEY, request, testConfig } from './support.js';
import { LLM_ACTIVITY } from '../../temporal-config/timeouts.js';
import { retryOutlook } from '../../activities/llm/errors.js';
import { recordCall, emptyLedger } from '../../lib/llm/accounting.js';
import { remainingBudget } from '../../lib/llm/budget.js';
import { loadConfig, validateConfig } from '../../lib/config.js';
import { describeCliFailure } from '../../cli/failure.js';
import { EXIT } from '../../cli/output.js';
import { BadInputError } from '../../lib/errors.js';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { LlmExchange, type LlmRequest, type LlmResult } from '../../schemas/llm.js';

type Server = FakeLlmServer & { baseUrl: string };

/** What differs between the two wire formats; everything else in a row is the same. */
interface Provider {
  name: 'openai' | 'gemini';
  model: string;
  server: () => Server;
  ok(text: string, usage: { in: number; out: number } | null, finishReason?: string): FakeReply;
  error(status: number, message: string, retryAfterSeconds?: number): FakeReply;
  contextLength(): FakeReply;
  refusal(text: string): FakeReply;
  cutOffReason: string;
  /** The output cap a request was sent with. */
  capOf(req: ReceivedRequest): number | undefined;
}

let openai: Server;
let gemini: Server;

const PROVIDERS: Provider[] = [
  {
    name: 'openai',
    model: 'openai:fake-gpt',
    server: () => openai,
    ok: (text, u, finishReason) => chatReply({ content: text, usage: u ? { prompt: u.in, completion: u.out } : null, finishReason }),
    error: (status, message, retryAfter) => openAiError(status, message, retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : undefined),
    contextLength: () => openAiContextLength(150_000, 128_000),
    refusal: (text) => chatReply({ content: null, refusal: text, usage: { prompt: 40, completion: 9 } }),
    cutOffReason: 'length',
    capOf: (req) => req.body.max_completion_tokens,
  },
  {
    name: 'gemini',
    model: 'gemini:fake-gemini',
    server: () => gemini,
    ok: (text, u, finishReason) => geminiReply({ text, usage: u ? { prompt: u.in, candidates: u.out } : null, finishReason }),
    // Gemini's 429 carries RetryInfo in the body; its 503 only the status.
    error: (status, message, retryAfter) => geminiError(status, message, retryAfter !== undefined ? { retryDelay: `${retryAfter}s` } : {}),
    contextLength: () => geminiError(400, 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).'),
    refusal: (text) =>
      geminiReply({ text, usage: { prompt: 40, candidates: 0 }, finishReason: 'SAFETY', safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] }),
    cutOffReason: 'MAX_TOKENS',
    capOf: (req) => req.body.generationConfig?.maxOutputTokens,
  },
];

/** Both fake models with a context window and an output limit, as physvec.config.json gives real ones. */
function config(llm: Record<string, unknown> = {}) {
  return testConfig(
    { openai: openai.baseUrl, gemini: gemini.baseUrl },
    {
      models: {
        'openai:fake-gpt': { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5, contextWindow: 128_000, maxOutputTokens: 4000 },
        'gemini:fake-gemini': { inputPerMTok: 1, outputPerMTok: 4, contextWindow: 1_048_576, maxOutputTokens: 4000 },
      },
      ...llm,
    },
  );
}

/** Activity info of attempt `attempt` of a call first scheduled `elapsedMs` ago, under the production LLM_ACTIVITY options. */
function infoOf(attempt: number, elapsedMs: number, over: Partial<Info> = {}): Partial<Info> {
  const now = Date.now();
  return {
    attempt,
    scheduledTimestampMs: now - elapsedMs,
    currentAttemptScheduledTimestampMs: now,
    startToCloseTimeoutMs: msToNumber(LLM_ACTIVITY.startToCloseTimeout!),
    scheduleToCloseTimeoutMs: LLM_ACTIVITY.scheduleToCloseTimeout ? msToNumber(LLM_ACTIVITY.scheduleToCloseTimeout) : 0,
    heartbeatTimeoutMs: msToNumber(LLM_ACTIVITY.heartbeatTimeout!),
    retryPolicy: LLM_ACTIVITY.retry,
    ...over,
  };
}

const quiet = new DefaultLogger('ERROR', () => {});

/** callLlm as the worker runs it, inside an activity context with the given info. */
function inActivity(info: Partial<Info>, req: LlmRequest, llm: Record<string, unknown> = {}): Promise<LlmResult> {
  const { callLlm } = activities({ config: config(llm) });
  return new MockActivityEnvironment(info, { logger: quiet }).run(callLlm, req);
}

async function failure(p: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApplicationFailure, `expected an ApplicationFailure, got ${(err as Error)?.stack ?? String(err)}`);
    return err;
  }
  assert.fail('the call succeeded; a failure was expected');
}

before(async () => {
  openai = await startFakeOpenAI({ apiKey: OPENAI_KEY });
  gemini = await startFakeGemini({ apiKey: GEMINI_KEY });
});
after(async () => {
  await openai.close();
  await gemini.close();
});
beforeEach(() => {
  openai.reset();
  gemini.reset();
});

// ---- a. transient faults: retried within the call's deadline, with a true message ----------------------

test('a: the LLM retry policy survives a 50 s outage and a 3-minute rate-limit storm (attempts unlimited, backoff ≤ 60 s, deadline tens of minutes)', () => {
  const retry = LLM_ACTIVITY.retry!;
  assert.ok(!Number.isFinite(retry.maximumAttempts ?? Infinity) || retry.maximumAttempts === 0, `maximumAttempts ${retry.maximumAttempts} caps a long outage`);
  assert.ok(msToNumber(retry.maximumInterval!) <= 60_000 && msToNumber(retry.maximumInterval!) >= 30_000, 'backoff capped near a minute');
  const deadline = msToNumber(LLM_ACTIVITY.scheduleToCloseTimeout!);
  assert.ok(deadline >= 20 * 60_000, `schedule-to-close ${deadline} ms is no budget for an outage of minutes`);
  // Replay the server's retry arithmetic: attempts fail while the outage lasts; each gap is the backoff or Retry-After.
  const survive = (outageMs: number, retryAfterMs?: number) => {
    const start = 1_000_000;
    let t = start;
    for (let attempt = 1; ; attempt++) {
      if (t - start >= outageMs) return { attempt, at: t - start };
      const o = retryOutlook({ attempt, scheduledTimestampMs: start, scheduleToCloseTimeoutMs: deadline, retryPolicy: retry }, retryAfterMs, t);
      if (!o.willRetry) return { gaveUpAt: t - start, attempt, reason: o.reason };
      t += o.delayMs + 200; // the attempt itself
    }
  };
  const outage = survive(50_000);
  assert.ok('at' in outage && outage.at! < 120_000, `50 s outage: ${JSON.stringify(outage)}`);
  const storm = survive(180_000, 20_000);
  assert.ok('at' in storm, `rate-limit storm: ${JSON.stringify(storm)}`);
  const dead = survive(2 * deadline);
  assert.ok('gaveUpAt' in dead && dead.gaveUpAt! <= deadline, 'a provider that never comes back still ends the call by its deadline');
});

for (const p of PROVIDERS) {
  test(`a/${p.name}: a 503 inside the deadline is retryable; the message names the next attempt and its wait (backoff), not a blanket "Temporal retries"`, async () => {
    p.server().enqueue(p.error(503, 'The model is overloaded. Please try again later.'));
    const f = await failure(inActivity(infoOf(3, 40_000), request(p.model)));
    assert.equal(f.type, 'LlmTransientError');
    assert.equal(f.nonRetryable, false);
    assert.equal(f.nextRetryDelay, 4000, 'attempt 3 of 1 s × 2^n backoff waits 4 s');
    assert.match(f.message, /HTTP 503/);
    assert.match(f.message, /provider unavailable for 4\ds, retrying in 4s \(attempt 4 next, 29m\d\ds left before the call's deadline\)/);
    assert.doesNotMatch(f.message, /Temporal retries this call/);
  });

  test(`a/${p.name}: a 429 asks for a wait (Retry-After / RetryInfo): it is the next retry's delay, beyond the capped backoff`, async () => {
    p.server().enqueue(p.error(429, 'Rate limit reached', 75));
    const f = await failure(inActivity(infoOf(9, 5 * 60_000), request(p.model)));
    assert.equal(f.type, 'LlmTransientError');
    assert.equal(f.nonRetryable, false);
    assert.equal(f.nextRetryDelay, 75_000);
    assert.match(f.message, /asked to wait 1m15s.*retrying in 1m15s \(attempt 10 next/);
  });

  test(`a/${p.name}: a transient fault whose next attempt would pass the deadline ends the call non-retryably, saying it gave up and why`, async () => {
    p.server().enqueue(p.error(503, 'Service Unavailable'));
    const f = await failure(inActivity(infoOf(31, 29 * 60_000 + 30_000), request(p.model)));
    assert.equal(f.type, 'LlmUnavailableError');
    assert.equal(f.nonRetryable, true);
    assert.match(f.message, /gave up after 31 attempts over 29m3\ds: the next attempt \(in 1m00s\) would start after the call's deadline of 30m00s/);
    assert.doesNotMatch(f.message, /retrying|Temporal retries/);
    // A Retry-After longer than what is left gives up as well (and says the provider asked for it).
    p.server().enqueue(p.error(429, 'quota', 600));
    const g = await failure(inActivity(infoOf(4, 25 * 60_000), request(p.model)));
    assert.equal(g.type, 'LlmUnavailableError');
    assert.match(g.message, /in 10m00s, as the provider asked/);
  });

  test(`a/${p.name}: a connection reset is transient`, async () => {
    p.server().enqueue({ reset: true, body: null });
    const f = await failure(inActivity(infoOf(1, 0), request(p.model)));
    assert.equal(f.type, 'LlmTransientError');
    assert.equal(f.nonRetryable, false);
    assert.equal(f.nextRetryDelay, 1000);
  });

  for (const status of [401, 403]) {
    test(`a/${p.name}: HTTP ${status} is permanent: non-retryable at once, naming the key variable`, async () => {
      p.server().enqueue(p.error(status, status === 401 ? 'API key not valid' : 'Permission denied on the project'));
      const f = await failure(inActivity(infoOf(1, 0), request(p.model)));
      assert.equal(f.type, 'LlmFatalError');
      assert.equal(f.nonRetryable, true);
      assert.match(f.message, new RegExp(`HTTP ${status}.*set TEST_${p.name.toUpperCase()}_KEY`));
      assert.equal(p.server().requests.length, 1);
    });
  }

  test(`a/${p.name}: a 400 for context length is permanent, with the prompt's size, the model's window and what to do`, async () => {
    p.server().enqueue(p.contextLength());
    const f = await failure(inActivity(infoOf(1, 0), request(p.model)));
    assert.equal(f.type, 'LlmFatalError');
    assert.equal(f.nonRetryable, true);
    const window = p.name === 'openai' ? 128000 : 1048576;
    // The size is counted with a tokenizer (o200k_base: an approximation for fake-gpt and Gemini), not chars/4.
    const size = new RegExp(`the prompt is ~(\\d+) tokens \\(counted with o200k_base, an approximation for this model; (\\d+) characters\\) and does not fit the context window of ${p.model} \\(${window} tokens\\)`).exec(f.message);
    assert.ok(size, f.message);
    const texts = (request(p.model).messages as { content: string }[]).map((m) => m.content);
    assert.equal(Number(size[1]), texts.reduce((n, t) => n + 4 + o200k.encode(t).length, 0), 'the tokens of its messages, 4 a message for the framing');
    assert.equal(Number(size[2]), texts.join('').length);
    assert.match(f.message, /shorten the input/);
    assert.match(f.message, /choose a model with a bigger context window \(--model <provider:model> or --role-model author=<provider:model>\)/);
  });

  test(`a/${p.name}: an answer that never matches its schema ends after the configured re-asks, non-retryably`, async () => {
    for (let i = 0; i < 3; i++) p.server().enqueue(p.ok('{"verdict": "perhaps"}', { in: 50, out: 5 }));
    const f = await failure(inActivity(infoOf(1, 0), request(p.model, { outputSchema: 'verdict' }), { structuredRetries: 2 }));
    assert.equal(f.type, 'SchemaValidationError');
    assert.equal(f.nonRetryable, true);
    assert.match(f.message, /role author.*did not match outputSchema "verdict" after 3 tries: the JSON does not match the schema: verdict/);
    assert.equal(p.server().requests.length, 3);
  });
}

// ---- b. missing usage is estimated, never 0 -----------------------------------------------------------

for (const p of PROVIDERS) {
  test(`b/${p.name}: the budget guard counts the prompt with the tokenizer: a numeric prompt that chars/4 says fits is refused before any request`, async () => {
    // Numbers run ~2.5 characters a token: chars/4 would take this prompt for far less than it costs.
    const numbers = `[${Array.from({ length: 300 }, (_, i) => Math.sin(i + 1).toFixed(9)).join(', ')}]`;
    const req = request(p.model, { messages: [{ role: 'user', content: `Fit these energies: ${numbers}` }], maxOutputTokens: 10 });
    const counted = 4 + o200k.countTokens((req.messages[0] as { content: string }).content);
    const charsOver4 = Math.ceil((req.messages[0] as { content: string }).content.length / 4);
    assert.ok(counted > 1.3 * charsOver4, `the prompt is ${counted} tokens, chars/4 says ${charsOver4}`);
    const budget = remainingBudget({ maxTokens: charsOver4 + 50 }, emptyLedger())!;
    const { callLlm } = activities({ config: config() });
    const f = await failure(callLlm({ ...req, budget }));
    assert.equal(f.type, 'BudgetExhaustedError');
    assert.match(f.message, new RegExp(`estimated at ${counted + 10} tokens \\(${counted} in \\+ 10 out\\) but ${charsOver4 + 50} tokens of the budget remain`));
    assert.equal(p.server().requests.length, 0, 'refused before any request');
  });
}


for (const p of PROVIDERS) {
  test(`b/${p.name}: a response without usage is counted with a tokenizer (not chars/4, not 0), marked estimated in result, transcript and ledger, priced, and a budget message says so`, async () => {
    const answer = 'The ground-state energy per site is 1/4 - ln 2 ≈ -0.4431, from the Bethe ansatz. '.repeat(4);
    p.server().enqueue(p.ok(answer, null));
    const { callLlm, store } = activities({ config: config() });
    const r = await callLlm(request(p.model));
    assert.equal(r.text, answer);
    assert.ok(r.usage.inputTokens > 10, `input tokens ${r.usage.inputTokens}`);
    // Neither fake model is an OpenAI model the tokenizer knows: both are counted with o200k_base, the documented approximation.
    assert.equal(r.usage.outputTokens, o200k.countTokens(answer));
    assert.notEqual(r.usage.outputTokens, Math.ceil(answer.length / 4));
    assert.equal(r.usage.estimated, true);
    assert.equal(r.usage.estimatedTokens, r.usage.inputTokens + r.usage.outputTokens);
    assert.ok(r.costUsd > 0, 'an estimated call is not free');
    const exchange = LlmExchange.parse(await store.getJson(r.exchangeRef));
    assert.equal(exchange.httpCalls[0]!.usageEstimated, true);

    let ledger = recordCall(emptyLedger(), request(p.model).key, r);
    assert.equal(ledger.total.estimated, true);
    assert.equal(ledger.total.estimatedTokens, r.usage.estimatedTokens);
    assert.equal(ledger.byModel[p.model]!.estimated, true);

    // A budget of 6000 tokens: what the estimated call used is gone from it, and the refusal says the spend is estimated.
    const budget = remainingBudget({ maxTokens: 6000 }, ledger)!;
    assert.equal(budget.remainingTokens, 6000 - r.usage.estimatedTokens!);
    assert.equal(budget.estimatedTokens, r.usage.estimatedTokens);
    const f = await failure(callLlm(request(p.model, { maxOutputTokens: 5990 - r.usage.estimatedTokens!, budget })));
    assert.equal(f.type, 'BudgetExhaustedError');
    assert.match(f.message, new RegExp(`but ${budget.remainingTokens} tokens of the budget remain \\(tokens spent so far include ${r.usage.estimatedTokens} estimated with a tokenizer`));
    ledger = recordCall(ledger, request(p.model).key, { ...(f.details![0] as LlmResult), failed: true });
    assert.equal(ledger.total.estimatedTokens, r.usage.estimatedTokens);
  });

  test(`b/${p.name}: a response with usage stays exact (not marked estimated)`, async () => {
    p.server().enqueue(p.ok('fine', { in: 30, out: 2 }));
    const { callLlm } = activities({ config: config() });
    const r = await callLlm(request(p.model));
    assert.deepEqual([r.usage.inputTokens, r.usage.outputTokens, r.usage.estimated, r.usage.estimatedTokens], [30, 2, undefined, undefined]);
  });
}

// ---- c. model faults exit 1, not 2 ---------------------------------------------------------------------

/** A run that ended in error because of `leaf`, as the client sees it (reproduction → RunEndedInError → activity → leaf). */
function endedRun(leaf: ApplicationFailure): WorkflowFailedError {
  const activity = new ActivityFailure('Activity task failed', 'callLlm', '7', RetryState.NON_RETRYABLE_FAILURE, 'worker', leaf);
  const ended = ApplicationFailure.create({ type: 'RunEndedInError', message: `error during stage plan: ${leaf.message}`, nonRetryable: true, cause: activity });
  return new WorkflowFailedError('Workflow execution failed', ended, RetryState.NON_RETRYABLE_FAILURE);
}

for (const p of PROVIDERS) {
  test(`c/${p.name}: a run ended by a model fault (schema never valid, refusal, cut-off answer) exits 1 with what the model did; bad input still exits 2`, async () => {
    p.server().enqueue(p.ok('not json', { in: 10, out: 2 }), p.ok('still not', { in: 10, out: 2 }));
    const schema = await failure(inActivity(infoOf(1, 0), request(p.model, { outputSchema: 'verdict' }), { structuredRetries: 1 }));
    p.server().enqueue(p.refusal("I'm sorry, I can't help with that."));
    const refusal = await failure(inActivity(infoOf(1, 0), request(p.model, { outputSchema: 'verdict' })));
    p.server().enqueue(p.ok('{"verdict":"cor', { in: 10, out: 4000 }, p.cutOffReason));
    const cut = await failure(inActivity(infoOf(1, 0), request(p.model, { outputSchema: 'verdict', maxOutputTokens: 4000 })));
    for (const [f, text] of [[schema, /did not match outputSchema/], [refusal, /refused/], [cut, /cut off at 4000 output tokens/]] as const) {
      const cli = describeCliFailure(endedRun(f));
      assert.equal(cli.exitCode, EXIT.failed, `${f.type}: exit ${cli.exitCode}`);
      assert.equal(cli.kind, 'workflow-failed');
      assert.match(cli.message, text);
      assert.match(cli.message, new RegExp(`\\[${f.type}\\]`));
    }
    assert.equal(describeCliFailure(new BadInputError('task.json: field "topic" is missing')).exitCode, EXIT.badInput);
  });
}

// ---- d. refusals ---------------------------------------------------------------------------------------

for (const p of PROVIDERS) {
  test(`d/${p.name}: a refusal is a typed, non-retryable refusal failure naming the role and what the model said; it is not re-asked as invalid JSON`, async () => {
    p.server().enqueue(p.refusal("I'm sorry, I can't help with that."), p.ok('{"verdict":"correct","reason":"x"}', { in: 1, out: 1 }));
    const f = await failure(inActivity(infoOf(1, 0), request(p.model, { outputSchema: 'verdict', key: { role: 'rubric-grader', stage: 'rubric', iteration: 0, seq: 0 } })));
    assert.equal(f.type, 'LlmRefusalError');
    assert.equal(f.nonRetryable, true);
    assert.match(f.message, /role rubric-grader/);
    if (p.name === 'openai') assert.match(f.message, /refused: I'm sorry, I can't help with that\./);
    else assert.match(f.message, /refused: the answer was stopped \(finishReason SAFETY: HARM_CATEGORY_DANGEROUS_CONTENT\); it began: I'm sorry/);
    assert.doesNotMatch(f.message, /not valid JSON|Unexpected token/);
    assert.equal(p.server().requests.length, 1, 'not re-asked');
    const d = f.details![0] as { usage: { inputTokens: number } };
    assert.equal(d.usage.inputTokens, 40, 'the refused call still counts');
  });
}

test('d/openai: finish_reason content_filter is a refusal too', async () => {
  openai.enqueue(chatReply({ content: '', usage: { prompt: 20, completion: 0 }, finishReason: 'content_filter' }));
  const f = await failure(inActivity(infoOf(1, 0), request('openai:fake-gpt')));
  assert.equal(f.type, 'LlmRefusalError');
  assert.match(f.message, /content filter/);
});

test('d/gemini: a blocked prompt (promptFeedback.blockReason, no candidates) is a refusal naming the reason', async () => {
  gemini.enqueue(geminiBlockedPrompt('PROHIBITED_CONTENT'));
  const f = await failure(inActivity(infoOf(1, 0), request('gemini:fake-gemini', { outputSchema: 'verdict' })));
  assert.equal(f.type, 'LlmRefusalError');
  assert.match(f.message, /role author.*refused: the prompt was blocked \(blockReason PROHIBITED_CONTENT\)/);
  assert.equal(gemini.requests.length, 1);
});

// ---- e. cut-off answers --------------------------------------------------------------------------------

for (const p of PROVIDERS) {
  test(`e/${p.name}: an answer cut off by the cap (${p.cutOffReason}) is asked again under a doubled cap, and accepted`, async () => {
    p.server().enqueue(
      p.ok('{"verdict":"correct","reason":"E0/N = 1/4 - ', { in: 100, out: 500 }, p.cutOffReason),
      p.ok('{"verdict":"correct","reason":"E0/N = 1/4 - ln 2"}', { in: 100, out: 520 }),
    );
    const { callLlm, store } = activities({ config: config() });
    const r = await callLlm(request(p.model, { outputSchema: 'verdict', maxOutputTokens: 500 }));
    assert.deepEqual(r.parsed, { verdict: 'correct', reason: 'E0/N = 1/4 - ln 2' });
    assert.deepEqual(p.server().requests.map(p.capOf), [500, 1000]);
    assert.equal(r.usage.outputTokens, 1020, 'the cut-off answer counts');
    assert.equal(r.usage.retries, 1);
    const exchange = LlmExchange.parse(await store.getJson(r.exchangeRef));
    assert.deepEqual(exchange.httpCalls.map((c) => [c.purpose, c.finishReason, c.maxOutputTokens]), [['answer', p.cutOffReason, 500], ['larger-cap', p.name === 'openai' ? 'stop' : 'STOP', 1000]]);
  });

  test(`e/${p.name}: the cap grows up to the model's limit (never past it), then the call fails saying where the answer was cut off`, async () => {
    for (let i = 0; i < 3; i++) p.server().enqueue(p.ok('{"verdict":"cor', { in: 100, out: 1 }, p.cutOffReason));
    const f = await failure(inActivity(infoOf(1, 0), request(p.model, { outputSchema: 'verdict', maxOutputTokens: 1500 })));
    assert.deepEqual(p.server().requests.map(p.capOf), [1500, 3000, 4000]);
    assert.equal(f.type, 'LlmTruncatedError');
    assert.equal(f.nonRetryable, true);
    assert.match(f.message, /answer cut off at 4000 output tokens .*the model's limit/);
  });

  test(`e/${p.name}: without a cap in the request, the cap that cut the answer (its output tokens) is doubled; at most ${3} larger caps`, async () => {
    for (let i = 0; i < 4; i++) p.server().enqueue(p.ok('long…', { in: 100, out: 300 }, p.cutOffReason));
    const f = await failure(inActivity(infoOf(1, 0), request(p.model), { models: {} }));
    assert.deepEqual(p.server().requests.map(p.capOf), [undefined, 600, 1200, 2400]);
    assert.equal(f.type, 'LlmTruncatedError');
    assert.match(f.message, /cut off at 2400 output tokens .*after 3 larger cap\(s\)/);
  });
}

// ---- f. per-call HTTP timeouts -------------------------------------------------------------------------

test('f: the default per-call HTTP timeout (schema and physvec.config.json) is at most half the LLM activity\'s startToClose', () => {
  const startToClose = msToNumber(LLM_ACTIVITY.startToCloseTimeout!);
  const dflt = validateConfig({ llm: { defaultModel: 'openai:x', providers: { openai: { kind: 'openai', apiKeyEnv: null } } } }, 'test').llm.requestTimeoutMs;
  assert.ok(dflt <= startToClose / 2, `default requestTimeoutMs ${dflt} vs startToClose ${startToClose}`);
  const shipped = loadConfig();
  for (const [alias, prov] of Object.entries(shipped.llm.providers)) {
    const t = prov.requestTimeoutMs ?? shipped.llm.requestTimeoutMs;
    assert.ok(t <= startToClose / 2, `physvec.config.json: provider ${alias} waits ${t} ms per call, startToClose is ${startToClose} ms`);
  }
});

for (const p of PROVIDERS) {
  test(`f/${p.name}: a provider that sends nothing is cut off at what is left of the attempt (minus a margin), not at llm.requestTimeoutMs`, async () => {
    p.server().enqueue({ ...p.ok('late', { in: 1, out: 1 }), delayMs: 20_000 });
    const t0 = Date.now();
    // 13 s of startToClose: the call must give up ~10 s before it, i.e. after ~3 s, though the config allows 60 s.
    const f = await failure(inActivity(infoOf(1, 0, { startToCloseTimeoutMs: 13_000 }), request(p.model), { requestTimeoutMs: 60_000 }));
    const took = Date.now() - t0;
    assert.equal(f.type, 'LlmTransientError');
    assert.match(f.message, /timeout: no response within (2\d{3}|3000) ms/);
    assert.ok(took < 8000, `took ${took} ms`);
  });

  test(`f/${p.name}: a response that stops mid-body is timed out (the SDKs' own timeout stops at the headers)`, async () => {
    p.server().enqueue({ ...p.ok('{"verdict":"correct","reason":"complete"}', { in: 1, out: 1 }), stallBodyMs: 15_000 });
    const t0 = Date.now();
    const f = await failure(inActivity(infoOf(1, 0), request(p.model), { requestTimeoutMs: 1500 }));
    const took = Date.now() - t0;
    assert.equal(f.type, 'LlmTransientError');
    assert.equal(f.nonRetryable, false);
    // openai stops its timer at the headers (undici's body timeout ends it); @google/genai's covers the body.
    assert.match(f.message, /timeout: (the response stopped mid-body for|no response within) 1500 ms/);
    assert.ok(took < 8000, `took ${took} ms`);
  });
}
