// The callLlm activity against a loopback Gemini generateContent server, through the real `@google/genai` SDK.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeGemini, geminiReply, geminiError } from '../helpers/fake-gemini-server.js';
import { activities, failureOf, GEMINI_KEY, request, retrieveSpec, testConfig } from './support.js';

let server: Awaited<ReturnType<typeof startFakeGemini>>;
before(async () => {
  server = await startFakeGemini({ apiKey: GEMINI_KEY });
});
after(() => server.close());
beforeEach(() => server.reset());

test('structured output: responseMimeType json + responseJsonSchema, parsed into the zod type', async () => {
  const { callLlm } = activities({ config: testConfig({ gemini: server.baseUrl }) });
  server.enqueue(geminiReply({ text: '{"items":["DMRG","TEBD"]}', usage: { prompt: 80, candidates: 12, thoughts: 30, cached: 16 } }));
  const r = await callLlm(request('gemini:fake-gemini', { outputSchema: 'string-list', temperature: 0.15, maxOutputTokens: 256 }));
  assert.deepEqual(r.parsed, { items: ['DMRG', 'TEBD'] });
  const req = server.requests[0]!;
  assert.match(req.path, /^\/v1beta\/models\/fake-gemini:generateContent/);
  assert.equal(req.headers['x-goog-api-key'], GEMINI_KEY);
  assert.equal(req.body.generationConfig.responseMimeType, 'application/json');
  assert.equal(req.body.generationConfig.responseJsonSchema.properties.items.type, 'array');
  assert.equal(req.body.generationConfig.temperature, 0.15);
  assert.equal(req.body.generationConfig.maxOutputTokens, 256);
  assert.equal(req.body.systemInstruction.parts[0].text, 'You are a physicist.');
  // thinking tokens are billed as output
  assert.deepEqual([r.usage.inputTokens, r.usage.outputTokens, r.usage.cachedInputTokens], [80, 42, 16]);
  assert.ok(Math.abs(r.costUsd - (80 * 1 + 42 * 4) / 1e6) < 1e-12);
});

test('malformed JSON is re-asked and the second answer accepted; usage of both counts', async () => {
  const { callLlm } = activities({ config: testConfig({ gemini: server.baseUrl }) });
  server.enqueue(
    geminiReply({ text: '{"items": [1, 2]}', usage: { prompt: 10, candidates: 5 } }),
    geminiReply({ text: '{"items":["a"]}', usage: { prompt: 30, candidates: 6 } }),
  );
  const r = await callLlm(request('gemini:fake-gemini', { outputSchema: 'string-list' }));
  assert.deepEqual(r.parsed, { items: ['a'] });
  assert.deepEqual([r.usage.inputTokens, r.usage.outputTokens, r.usage.calls, r.usage.retries], [40, 11, 2, 1]);
  const contents = server.requests[1]!.body.contents;
  assert.equal(contents.at(-2).role, 'model');
  assert.match(contents.at(-1).parts[0].text, /items\.0: /);
});

test('tool calls round-trip as functionCall / functionResponse', async () => {
  const { callLlm } = activities({ config: testConfig({ gemini: server.baseUrl }) });
  server.enqueue(
    geminiReply({ functionCalls: [{ name: 'retrieve', args: { query: 'tfim gap' } }], usage: { prompt: 40, candidates: 4 } }),
    geminiReply({ text: 'the gap closes at h = J', usage: { prompt: 70, candidates: 9 } }),
  );
  const r = await callLlm(request('gemini:fake-gemini', { tools: [retrieveSpec] }));
  assert.equal(r.text, 'the gap closes at h = J');
  assert.deepEqual(r.toolCalls.map((c) => [c.name, c.args]), [['retrieve', { query: 'tfim gap' }]]);
  assert.equal(r.usage.toolCalls, 1);
  const first = server.requests[0]!.body;
  assert.equal(first.tools[0].functionDeclarations[0].name, 'retrieve');
  assert.equal(first.tools[0].functionDeclarations[0].parametersJsonSchema.properties.query.type, 'string');
  assert.equal(first.toolConfig.functionCallingConfig.mode, 'AUTO');
  const contents = server.requests[1]!.body.contents;
  assert.deepEqual(contents.at(-2).parts[0].functionCall, { name: 'retrieve', args: { query: 'tfim gap' } });
  const fr = contents.at(-1).parts[0].functionResponse;
  assert.equal(fr.name, 'retrieve');
  assert.equal(fr.id, undefined, 'a synthetic call id is not echoed back');
  assert.match(fr.response.result, /doc for "tfim gap"/);
});

test('429 with RetryInfo becomes a retryable failure delayed as asked; a Retry-After header wins', async () => {
  const { callLlm } = activities({ config: testConfig({ gemini: server.baseUrl }) });
  server.enqueue(geminiError(429, 'Resource has been exhausted', { retryDelay: '3s' }), geminiError(503, 'overloaded', { headers: { 'retry-after': '2' } }));
  await assert.rejects(callLlm(request('gemini:fake-gemini')), (err) => {
    const f = failureOf(err);
    assert.equal(f.type, 'LlmTransientError');
    assert.equal(f.nonRetryable, false);
    assert.equal(f.nextRetryDelay, 3000);
    return true;
  });
  await assert.rejects(callLlm(request('gemini:fake-gemini')), (err) => failureOf(err).nextRetryDelay === 2000);
  assert.equal(server.requests.length, 2, 'the SDK itself did not retry');
});

test('401 fails at once with a message naming the env var', async () => {
  const { callLlm } = activities({ config: testConfig({ gemini: server.baseUrl }), env: { TEST_GEMINI_KEY: 'nope' } });
  await assert.rejects(callLlm(request('gemini:fake-gemini')), (err) => {
    const f = failureOf(err);
    assert.equal(f.type, 'LlmFatalError');
    assert.equal(f.nonRetryable, true);
    assert.match(f.message, /API key not valid/);
    assert.match(f.message, /set TEST_GEMINI_KEY/);
    return true;
  });
  assert.equal(server.requests.length, 1);
});
