// Drill (slow tier): a provider that answers every request with 503 for 5 minutes (issue 26's
// "a 5-minute outage drill"; PHYSVEC_PROVIDER_OUTAGE_S shortens it), then recovers. One callLlm per
// provider (OpenAI and Gemini wire formats, the real SDKs) runs under the production LLM_ACTIVITY
// options (temporal-config/timeouts.ts) on a real Temporal dev server, and must complete with the
// answer given after the outage: Temporal's retries (unlimited attempts, backoff capped at 60 s, within
// the call's 30 min deadline) outlast it. Under the earlier policy (8 attempts, at most 10 s apart) the
// 8th attempt failed ~45 s in and the run ended in error. Late in the outage, what `physvec status`
// shows is checked ("provider unavailable for 4m10s, retrying (attempt 10)"). Prints each provider's
// attempt table for the closing note. Takes the outage plus at most ~70 s, nearly all of it waiting.
// run-tests: mostly waits (10 s of CPU in 312 s), so it also runs beside the CPU-bound files (scripts/run-tests.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { withWorker, uniqueQueue } from '../helpers/temporal.js';
import { startFakesOnTemporal, type FakesOnTemporal } from './fakes-on-temporal.js';
import { chatReply, openAiError } from '../helpers/fake-openai-server.js';
import { geminiReply, geminiError } from '../helpers/fake-gemini-server.js';
import type { FakeLlmServer } from '../helpers/fake-llm-http.js';
import { createLlmActivities } from '../../activities/llm/index.js';
import { repoRoot } from '../../lib/paths.js';
import type { LlmExchange, LlmResult } from '../../schemas/llm.js';
import { request, tempStore, testConfig, testEnv } from './support.js';
import { retryingLlmCalls } from '../../cli/runs/live-llm-calls.js';

const OUTAGE_MS = Number(process.env.PHYSVEC_PROVIDER_OUTAGE_S ?? 300) * 1000;
/** The backoff cap (60 s) plus dispatch time and a loaded host's slack. */
const AFTER_OUTAGE_MS = 75_000;
const workflowsPath = path.join(repoRoot, 'tests', 'fixtures', 'workflows', 'llm-workflows.ts');

let fakes: FakesOnTemporal;
let openai: FakesOnTemporal['openai'];
let gemini: FakesOnTemporal['gemini'];
let client: Client;
before(async () => {
  fakes = await startFakesOnTemporal();
  ({ openai, gemini, client } = fakes);
});
after(() => fakes.close());

/** 503 for every request until `until`, then the queue (one good answer). */
function outage(server: FakeLlmServer, until: number, unavailable: () => ReturnType<typeof openAiError>): void {
  server.fault(() => (Date.now() < until ? unavailable() : undefined));
}

test(`a ${OUTAGE_MS / 1000} s provider outage (503 on every request) does not fail the call: it completes under the production retry policy`, { timeout: OUTAGE_MS + AFTER_OUTAGE_MS + 60_000 }, async () => {
  const store = tempStore();
  const config = testConfig({ openai: openai.baseUrl, gemini: gemini.baseUrl });
  const taskQueue = uniqueQueue('llm-outage');
  const activities = createLlmActivities({ store, config, env: testEnv });

  await withWorker({ taskQueue, workflowsPath, activities }, async () => {
    const start = Date.now();
    outage(openai, start + OUTAGE_MS, () => openAiError(503, 'The server is overloaded or not ready yet.'));
    outage(gemini, start + OUTAGE_MS, () => geminiError(503, 'The model is overloaded. Please try again later.'));
    openai.enqueue(chatReply({ content: 'back', usage: { prompt: 21, completion: 2 } }));
    gemini.enqueue(geminiReply({ text: 'back', usage: { prompt: 19, candidates: 1 } }));
    const start_ = (model: string) =>
      client.workflow.start<(r: unknown) => Promise<LlmResult>>('productionLlmCall', { taskQueue, workflowId: `outage-${uniqueQueue(model.split(':')[0])}`, args: [request(model)] });
    const handles = await Promise.all([start_('openai:fake-gpt'), start_('gemini:fake-gemini')]);

    // Late in the outage: what `physvec status` shows of each call.
    await new Promise((r) => setTimeout(r, OUTAGE_MS * 0.85));
    for (const h of handles) {
      const [call] = retryingLlmCalls((await h.describe()).raw.pendingActivities);
      console.log(`# status at ${((Date.now() - start) / 1000).toFixed(0)} s: ${call?.line.slice(0, 160)}`);
      assert.ok(call, 'the call is shown as retrying');
      assert.match(call.line, /^LLM call author plan #0: provider unavailable for (\d+m)?\d+s, retrying \(attempt \d+/);
      assert.ok(call.unavailableMs! >= OUTAGE_MS * 0.6, `unavailable for ${call.unavailableMs} ms`);
    }
    const [o, g] = await Promise.all(handles.map((h) => h.result()));
    const tookMs = Date.now() - start;

    for (const [name, r, server] of [['openai', o, openai], ['gemini', g, gemini]] as const) {
      const offsets = server.requests.map((q) => ((q.at - start) / 1000).toFixed(1));
      console.log(`# ${name}: ${server.requests.length} requests at ${offsets.join(', ')} s; answer at attempt ${r.attempt}; usage ${r.usage.inputTokens}+${r.usage.outputTokens} tokens, ${r.usage.calls} calls, ${r.usage.retries} retries`);
      assert.equal(r.text, 'back');
      assert.equal(r.attempt, server.requests.length, 'one HTTP call per attempt');
      assert.ok(r.attempt >= 6, `${name}: ${r.attempt} attempts cannot have spanned a ${OUTAGE_MS} ms outage`);
      assert.ok(server.requests.at(-2)!.at - start < OUTAGE_MS, `${name}: the second-to-last attempt fell inside the outage`);
      assert.ok(server.requests.at(-1)!.at - start >= OUTAGE_MS, `${name}: the answering attempt came after the outage`);
      // Gaps follow the policy: doubling from 1 s, never above 60 s (plus dispatch time).
      const gaps = server.requests.slice(1).map((q, i) => q.at - server.requests[i]!.at);
      assert.ok(gaps.every((gap) => gap < 62_000), `${name}: gaps ${gaps.join(', ')} ms`);
      assert.deepEqual([r.usage.calls, r.usage.retries], [r.attempt, r.attempt - 1]);
      // The attempt before the answer said, truthfully, that it would be retried and when.
      const exchange = await store.getJson<LlmExchange>(r.exchangeRef);
      const last = exchange.priorAttempts.at(-1)!;
      const failed = await store.getJson<LlmExchange>(last.exchangeRef!);
      assert.equal(failed.error?.type, 'LlmTransientError');
      assert.match(failed.error!.message, /HTTP 503.*retrying in (\d+m)?\d+(\.\d)?s \(attempt \d+ next/);
    }
    console.log(`# both calls completed ${(tookMs / 1000).toFixed(1)} s after the outage began (outage ${OUTAGE_MS / 1000} s)`);
    assert.ok(tookMs < OUTAGE_MS + AFTER_OUTAGE_MS, `took ${tookMs} ms`);
  });
});
