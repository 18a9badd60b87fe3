// The callLlm activity against a loopback OpenAI chat-completions server, through the real `openai` SDK.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { startFakeOpenAI, chatReply, openAiError } from '../helpers/fake-openai-server.js';
import { activities, failureOf, OPENAI_KEY, request, retrieveSpec, testConfig } from './support.js';
import type { LlmOutput } from '../../schemas/llm-outputs.js';
import { LlmExchange } from '../../schemas/llm.js';

let server: Awaited<ReturnType<typeof startFakeOpenAI>>;
before(async () => {
  server = await startFakeOpenAI({ apiKey: OPENAI_KEY });
});
after(() => server.close());
beforeEach(() => server.reset());

test('structured output is sent as a strict json_schema and parsed into the zod type', async () => {
  const { callLlm } = activities({ config: testConfig({ openai: server.baseUrl }) });
  server.enqueue(chatReply({ content: '{"verdict":"correct","reason":"E0/N = 1/4 - ln 2"}', usage: { prompt: 120, completion: 30, cached: 20 } }));
  const r = await callLlm(request('openai:fake-gpt', { outputSchema: 'verdict', temperature: 0.3, maxOutputTokens: 500 }));
  const parsed = r.parsed as LlmOutput<'verdict'>;
  assert.equal(parsed.verdict, 'correct');
  assert.equal(parsed.reason, 'E0/N = 1/4 - ln 2');
  const body = server.requests[0]!.body;
  assert.equal(body.response_format.type, 'json_schema');
  assert.equal(body.response_format.json_schema.strict, true);
  assert.equal(body.response_format.json_schema.schema.additionalProperties, false);
  assert.deepEqual(body.response_format.json_schema.schema.required, ['verdict', 'reason']);
  assert.equal(body.temperature, 0.3);
  assert.equal(body.max_completion_tokens, 500);
  assert.deepEqual(
    { in: r.usage.inputTokens, out: r.usage.outputTokens, cached: r.usage.cachedInputTokens, calls: r.usage.calls, retries: r.usage.retries },
    { in: 120, out: 30, cached: 20, calls: 1, retries: 0 },
  );
  // $2/M fresh input, $0.5/M cached, $8/M output
  assert.ok(Math.abs(r.costUsd - (100 * 2 + 20 * 0.5 + 30 * 8) / 1e6) < 1e-12);
  assert.equal(r.priced, true);
  assert.equal(r.scripted, false);
  assert.equal(r.provider, 'openai');
});

test('a malformed JSON answer is re-asked with the error, then accepted; both attempts count', async () => {
  const { callLlm, store } = activities({ config: testConfig({ openai: server.baseUrl }) });
  server.enqueue(
    chatReply({ content: '{"verdict": "maybe", "reason": ', usage: { prompt: 100, completion: 10 } }),
    chatReply({ content: '{"verdict":"maybe","reason":"x"}', usage: { prompt: 150, completion: 12 } }),
    chatReply({ content: '{"verdict":"wrong","reason":"sign error"}', usage: { prompt: 200, completion: 14 } }),
  );
  const r = await callLlm(request('openai:fake-gpt', { outputSchema: 'verdict' }));
  assert.deepEqual(r.parsed, { verdict: 'wrong', reason: 'sign error' });
  assert.equal(r.usage.inputTokens, 450);
  assert.equal(r.usage.outputTokens, 36);
  assert.equal(r.usage.calls, 3);
  assert.equal(r.usage.retries, 2);
  const second = server.requests[1]!.body.messages;
  assert.match(second.at(-1).content, /not valid JSON/);
  assert.equal(second.at(-2).role, 'assistant');
  const third = server.requests[2]!.body.messages;
  assert.match(third.at(-1).content, /verdict/);
  const exchange = LlmExchange.parse(await store.getJson(r.exchangeRef));
  assert.deepEqual(exchange.httpCalls.map((c) => c.purpose), ['answer', 'reask', 'reask']);
  assert.deepEqual(exchange.httpCalls.map((c) => c.usage.inputTokens), [100, 150, 200]);
  assert.equal(exchange.outcome, 'ok');
});

test('after structuredRetries re-asks the call fails with a non-retryable SchemaValidationError that carries the usage', async () => {
  const { callLlm } = activities({ config: testConfig({ openai: server.baseUrl }, { structuredRetries: 1 }) });
  server.enqueue(chatReply({ content: 'no json', usage: { prompt: 10, completion: 1 } }), chatReply({ content: 'still none', usage: { prompt: 20, completion: 2 } }));
  await assert.rejects(callLlm(request('openai:fake-gpt', { outputSchema: 'verdict' })), (err) => {
    assert.ok(err instanceof ApplicationFailure);
    assert.equal(err.type, 'SchemaValidationError');
    assert.equal(err.nonRetryable, true);
    const d = err.details![0] as { usage: { inputTokens: number; calls: number } };
    assert.equal(d.usage.inputTokens, 30);
    assert.equal(d.usage.calls, 2);
    return true;
  });
});

test('tool calls round-trip: the activity runs the tool and sends its result back under the call id', async () => {
  const { callLlm } = activities({ config: testConfig({ openai: server.baseUrl }) });
  server.enqueue(
    chatReply({ toolCalls: [{ name: 'retrieve', args: { query: 'heisenberg energy' }, id: 'call_A' }], usage: { prompt: 50, completion: 5 } }),
    chatReply({ content: 'E0/N = 1/4 - ln 2', usage: { prompt: 90, completion: 8 } }),
  );
  const r = await callLlm(request('openai:fake-gpt', { tools: [retrieveSpec] }));
  assert.equal(r.text, 'E0/N = 1/4 - ln 2');
  assert.equal(r.usage.toolCalls, 1);
  assert.equal(r.usage.inputTokens, 140);
  assert.deepEqual(r.toolCalls.map((c) => [c.round, c.name, c.args]), [[0, 'retrieve', { query: 'heisenberg energy' }]]);
  assert.match(r.toolCalls[0]!.resultPreview, /doc for "heisenberg energy"/);
  const first = server.requests[0]!.body;
  assert.equal(first.tools[0].function.name, 'retrieve');
  assert.equal(first.tool_choice, 'auto');
  const msgs = server.requests[1]!.body.messages;
  assert.equal(msgs.at(-2).tool_calls[0].id, 'call_A');
  assert.deepEqual(msgs.at(-1), { role: 'tool', tool_call_id: 'call_A', content: 'doc for "heisenberg energy": the Heisenberg chain has E0/N = 1/4 - ln 2' });
});

test('tool rounds are bounded: after maxToolRounds the model is asked with tool_choice none', async () => {
  const { callLlm } = activities({ config: testConfig({ openai: server.baseUrl }, { maxToolRounds: 1 }) });
  server.enqueue(
    chatReply({ toolCalls: [{ name: 'retrieve', args: { query: 'a' } }], usage: { prompt: 1, completion: 1 } }),
    chatReply({ content: 'done', usage: { prompt: 1, completion: 1 } }),
  );
  const r = await callLlm(request('openai:fake-gpt', { tools: [retrieveSpec] }));
  assert.equal(r.text, 'done');
  assert.equal(server.requests[1]!.body.tool_choice, 'none');
});

test('401 fails at once, non-retryable, with a message naming the env var', async () => {
  const { callLlm } = activities({ config: testConfig({ openai: server.baseUrl }), env: { TEST_OPENAI_KEY: 'wrong-key' } });
  await assert.rejects(callLlm(request('openai:fake-gpt')), (err) => {
    const f = failureOf(err);
    assert.equal(f.type, 'LlmFatalError');
    assert.equal(f.nonRetryable, true);
    assert.match(f.message, /HTTP 401/);
    assert.match(f.message, /set TEST_OPENAI_KEY/);
    return true;
  });
  assert.equal(server.requests.length, 1);
});

test('a missing key fails before any HTTP call, naming the variable', async () => {
  const { callLlm } = activities({ config: testConfig({ openai: server.baseUrl }), env: {} });
  await assert.rejects(callLlm(request('openai:fake-gpt')), (err) => {
    const f = failureOf(err);
    assert.equal(f.type, 'LlmFatalError');
    assert.match(f.message, /TEST_OPENAI_KEY is not set/);
    return true;
  });
  assert.equal(server.requests.length, 0);
});

test('429 becomes a retryable failure whose nextRetryDelay is Retry-After', async () => {
  const { callLlm } = activities({ config: testConfig({ openai: server.baseUrl }) });
  server.enqueue(openAiError(429, 'Rate limit reached', { 'retry-after': '7' }));
  await assert.rejects(callLlm(request('openai:fake-gpt')), (err) => {
    const f = failureOf(err);
    assert.equal(f.type, 'LlmTransientError');
    assert.equal(f.nonRetryable, false);
    assert.equal(f.nextRetryDelay, 7000);
    return true;
  });
});

test('500 and a connection failure are retryable; 400 is not', async () => {
  const { callLlm } = activities({ config: testConfig({ openai: server.baseUrl }) });
  server.enqueue(openAiError(500, 'boom'), openAiError(400, 'bad parameter: temperature'));
  await assert.rejects(callLlm(request('openai:fake-gpt')), (err) => failureOf(err).type === 'LlmTransientError' && failureOf(err).nonRetryable === false);
  await assert.rejects(callLlm(request('openai:fake-gpt')), (err) => {
    assert.equal(failureOf(err).nonRetryable, true);
    assert.match(failureOf(err).message, /bad parameter: temperature/);
    return true;
  });
  const closed = activities({ config: testConfig({ openai: 'http://127.0.0.1:9/v1' }) });
  await assert.rejects(closed.callLlm(request('openai:fake-gpt')), (err) => failureOf(err).type === 'LlmTransientError');
});

test('a budget the estimate would exceed refuses the call before any HTTP call', async () => {
  const { callLlm } = activities({ config: testConfig({ openai: server.baseUrl }) });
  await assert.rejects(callLlm(request('openai:fake-gpt', { maxOutputTokens: 1000, budget: { remainingTokens: 900 } })), (err) => {
    const f = failureOf(err);
    assert.equal(f.type, 'BudgetExhaustedError');
    assert.equal(f.nonRetryable, true);
    assert.match(f.message, /author\/plan\/0\/0/);
    return true;
  });
  assert.equal(server.requests.length, 0);
  // Dollars: 1000 output tokens at $8/M = $0.008 > $0.005.
  await assert.rejects(callLlm(request('openai:fake-gpt', { maxOutputTokens: 1000, budget: { remainingUsd: 0.005 } })), (err) => failureOf(err).type === 'BudgetExhaustedError');
  server.enqueue(chatReply({ content: 'ok', usage: { prompt: 10, completion: 2 } }));
  const r = await callLlm(request('openai:fake-gpt', { maxOutputTokens: 100, budget: { remainingTokens: 5000, remainingUsd: 1 } }));
  assert.equal(r.text, 'ok');
});

test('messages may carry artifacts, resolved from the store', async () => {
  const { callLlm, store } = activities({ config: testConfig({ openai: server.baseUrl }) });
  const tex = await store.put('\\section{Model} H = J \\sum S_i S_{i+1}', { name: 'paper.tex' });
  server.enqueue(chatReply({ content: 'ok', usage: { prompt: 1, completion: 1 } }));
  await callLlm(request('openai:fake-gpt', { messages: [{ role: 'user', content: [{ text: 'Read this:' }, { artifact: tex, label: 'PAPER' }] }] }));
  assert.equal(server.requests[0]!.body.messages[0].content, 'Read this:\n\nPAPER\n\\section{Model} H = J \\sum S_i S_{i+1}');
});

test('a long answer travels as a preview plus an artifact', async () => {
  const { callLlm, store } = activities({ config: testConfig({ openai: server.baseUrl }) });
  const long = 'x'.repeat(20_000);
  server.enqueue(chatReply({ content: long, usage: { prompt: 1, completion: 5000 } }));
  const r = await callLlm(request('openai:fake-gpt'));
  assert.equal(r.textTruncated, true);
  assert.equal(r.text.length, 1000);
  assert.equal(await store.getText(r.textRef!), long);
  assert.ok(JSON.stringify(r).length < 16_000);
});
