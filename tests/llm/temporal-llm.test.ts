// The LLM layer inside Temporal, on the real dev server: Retry-After honoured by Temporal's retries,
// usage summed across a failed-then-retried attempt, 401 not retried, a budget that stops a workflow
// with status budget_exhausted, a recorded run exported to a cassette that replays identically, and
// the status line of a call whose provider keeps failing.
// run-tests: mostly waits (alone, ~14 % of two cores: Retry-After waits), so it also runs beside the CPU-bound files (scripts/run-tests.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { WorkflowFailedError, ActivityFailure, ApplicationFailure } from '@temporalio/client';
import type { Client } from '@temporalio/client';
import { withWorker, uniqueQueue } from '../helpers/temporal.js';
import { startFakesOnTemporal, type FakesOnTemporal } from './fakes-on-temporal.js';
import { chatReply, openAiError } from '../helpers/fake-openai-server.js';
import { geminiReply, geminiError } from '../helpers/fake-gemini-server.js';
import { createLlmActivities } from '../../activities/llm/index.js';
import { exportCassette } from '../../cli/cassettes/export.js';
import { register as registerCassette } from '../../cli/commands/cassette.js';
import { repoRoot } from '../../lib/paths.js';
import type { LlmExchange, LlmResult } from '../../schemas/llm.js';
import type { BudgetLoopOutput } from '../fixtures/workflows/llm-workflows.js';
import { retryingLlmCalls } from '../../cli/runs/live-llm-calls.js';
import { showWorkflowStatus } from '../../cli/runs/workflow-status.js';
import { waitFor } from '../helpers/poll.js';
import { request, retrieveSpec, retrieveTool, tempStore, testConfig, testEnv } from './support.js';

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

test('callLlm under Temporal', { timeout: 180_000 }, async (t) => {
  const store = tempStore();
  const config = testConfig({ openai: openai.baseUrl, gemini: gemini.baseUrl });
  const taskQueue = uniqueQueue('llm');
  const activities = createLlmActivities({ store, config, env: testEnv, tools: { retrieve: retrieveTool } });
  const run = <T>(workflow: string, arg: unknown, id = `${workflow}-${uniqueQueue('wf')}`) =>
    client.workflow.execute<(a: unknown) => Promise<T>>(workflow, { taskQueue, workflowId: id, args: [arg] });

  await withWorker({ taskQueue, workflowsPath, activities }, async () => {
    await t.test('429 with Retry-After, then success: Temporal retries after the asked delay', async () => {
      openai.reset().enqueue(openAiError(429, 'Rate limit reached for requests', { 'retry-after': '3' }), chatReply({ content: 'ok', usage: { prompt: 11, completion: 3 } }));
      const r = await run<LlmResult>('singleLlmCall', request('openai:fake-gpt'));
      assert.equal(r.text, 'ok');
      assert.equal(r.attempt, 2);
      assert.equal(openai.requests.length, 2);
      const gap = openai.requests[1]!.at - openai.requests[0]!.at;
      assert.ok(gap >= 2900, `the retry came ${gap} ms after the 429; Retry-After asked 3000 ms (the policy's own interval is 100 ms)`);
      assert.deepEqual([r.usage.calls, r.usage.retries, r.usage.inputTokens, r.usage.outputTokens], [2, 1, 11, 3]);
    });

    await t.test('Gemini 429 with RetryInfo, then success: delay honoured', async () => {
      gemini.reset().enqueue(geminiError(429, 'Resource has been exhausted', { retryDelay: '3s' }), geminiReply({ text: 'ok', usage: { prompt: 7, candidates: 2 } }));
      const r = await run<LlmResult>('singleLlmCall', request('gemini:fake-gemini'));
      assert.equal(r.text, 'ok');
      assert.equal(r.attempt, 2);
      const gap = gemini.requests[1]!.at - gemini.requests[0]!.at;
      // Temporal's own retry here takes ~1 s (100 ms interval + dispatch), so ask for clearly more.
      assert.ok(gap >= 2900, `retried after ${gap} ms, asked 3000 ms`);
    });

    await t.test('500, then success on the next attempt', async () => {
      openai.reset().enqueue(openAiError(500, 'The server had an error'), chatReply({ content: 'fine', usage: { prompt: 5, completion: 1 } }));
      const r = await run<LlmResult>('singleLlmCall', request('openai:fake-gpt'));
      assert.equal(r.text, 'fine');
      assert.equal(r.attempt, 2);
      assert.deepEqual([r.usage.calls, r.usage.retries], [2, 1]);
    });

    await t.test('usage is summed exactly across a failed-then-retried attempt', async () => {
      // Attempt 1: a tool round (100/10 tokens), then the next HTTP call fails with 503.
      // Attempt 2: the tool round again (100/10), then the answer (120/20).
      openai.reset().enqueue(
        chatReply({ toolCalls: [{ name: 'retrieve', args: { query: 'q' } }], usage: { prompt: 100, completion: 10, cached: 40 } }),
        openAiError(503, 'overloaded'),
        chatReply({ toolCalls: [{ name: 'retrieve', args: { query: 'q' } }], usage: { prompt: 100, completion: 10, cached: 40 } }),
        chatReply({ content: 'answer', usage: { prompt: 120, completion: 20 } }),
      );
      const r = await run<LlmResult>('singleLlmCall', request('openai:fake-gpt', { tools: [retrieveSpec] }));
      assert.equal(r.text, 'answer');
      assert.equal(r.attempt, 2);
      assert.deepEqual(
        { in: r.usage.inputTokens, out: r.usage.outputTokens, cached: r.usage.cachedInputTokens, calls: r.usage.calls, retries: r.usage.retries, tools: r.usage.toolCalls },
        { in: 320, out: 40, cached: 80, calls: 4, retries: 1, tools: 2 },
      );
      assert.ok(Math.abs(r.costUsd - ((320 - 80) * 2 + 80 * 0.5 + 40 * 8) / 1e6) < 1e-12);
      const exchange = await store.getJson<LlmExchange>(r.exchangeRef);
      assert.equal(exchange.attempt, 2);
      assert.equal(exchange.priorAttempts.length, 1);
      assert.deepEqual([exchange.priorAttempts[0]!.usage.inputTokens, exchange.priorAttempts[0]!.usage.calls], [100, 2]);
      const first = await store.getJson<LlmExchange>(exchange.priorAttempts[0]!.exchangeRef!);
      assert.equal(first.outcome, 'error');
      assert.equal(first.error?.type, 'LlmTransientError');
      assert.deepEqual(first.httpCalls.map((c) => c.error?.status ?? 200), [200, 503]);
    });

    await t.test('a provider that keeps failing: physvec status says how long it has been unavailable and which attempt is next', async () => {
      const busy = () => openAiError(503, 'The engine is currently overloaded');
      openai.reset().enqueue(busy(), busy(), busy(), chatReply({ content: 'back', usage: { prompt: 9, completion: 1 } }));
      // The production policy (1 s doubling): attempts at ~0, 1, 3 and 7 s.
      const handle = await client.workflow.start('productionLlmCall', { taskQueue, workflowId: `status-${uniqueQueue('wf')}`, args: [request('openai:fake-gpt')] });
      const pending = await waitFor('the third attempt', async () => {
        const p = (await handle.describe()).raw.pendingActivities ?? [];
        return (p[0]?.attempt ?? 0) >= 3 && p[0]?.heartbeatDetails ? p : undefined;
      }, 30_000, 200);
      const [call] = retryingLlmCalls(pending);
      console.log(`status line: ${call?.line}`);
      assert.ok(call, 'the retried call is listed');
      assert.equal(call.call, 'author plan #0');
      assert.ok(call.unavailableMs! >= 1000, `unavailable for ${call.unavailableMs} ms (since attempt 1 failed)`);
      assert.match(call.line, /^LLM call author plan #0: provider unavailable for \d+s, retrying \(attempt [34].*\) — last failure \[LlmTransientError\]: .*503/);
      // What `physvec status <id>` prints.
      const printed: string[] = [];
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = ((chunk: string) => (printed.push(String(chunk)), true)) as typeof process.stdout.write;
      try {
        await showWorkflowStatus(handle.workflowId, {});
      } finally {
        process.stdout.write = write;
      }
      assert.match(printed.join(''), /\n\s*LLM call author plan #0: provider unavailable for \d+s, retrying \(attempt \d+/);
      const r = (await handle.result()) as LlmResult;
      assert.equal(r.text, 'back');
      assert.equal(r.attempt, 4);
    });

    await t.test('401 fails the workflow at once, not retried, naming the env var', async () => {
      openai.reset();
      await assert.rejects(run('singleLlmCall', request('badkey:fake-gpt')), (err) => {
        assert.ok(err instanceof WorkflowFailedError);
        assert.ok(err.cause instanceof ActivityFailure);
        const f = err.cause.cause as ApplicationFailure;
        assert.equal(f.type, 'LlmFatalError');
        assert.match(f.message, /HTTP 401.*set TEST_BAD_KEY/);
        return true;
      });
      assert.equal(openai.requests.length, 1);
    });

    await t.test('a budget stops the workflow mid-run with status budget_exhausted', async () => {
      openai.reset();
      for (let i = 0; i < 5; i++) openai.enqueue(chatReply({ content: `stage ${i} done`, usage: { prompt: 1000, completion: 200 } }));
      const out = await run<BudgetLoopOutput>('llmBudgetLoop', {
        model: 'openai:fake-gpt',
        limit: { maxTokens: 3000 },
        stages: ['plan', 'code', 'unit', 'integration', 'rubric'],
        maxOutputTokens: 1000,
      });
      // 1200 tokens per call: after two calls 600 remain, less than the next call's estimate (~1005).
      assert.equal(out.status, 'budget_exhausted');
      assert.equal(out.stageReached, 'unit');
      assert.equal(out.completedCalls, 2);
      assert.equal(openai.requests.length, 2, 'the refused call never reached the provider');
      assert.equal(out.ledger.total.inputTokens + out.ledger.total.outputTokens, 2400);
      assert.equal(out.ledger.total.failedLlmCalls, 1);
      assert.match(out.reason ?? '', /budget exhausted at author\/unit\/0\/0/);
      assert.deepEqual(Object.keys(out.ledger.byStage).sort(), ['code', 'plan', 'unit']);
    });

    await t.test('a recorded run exported to a cassette replays to identical results at zero cost', async () => {
      openai.reset().enqueue(
        chatReply({ toolCalls: [{ name: 'retrieve', args: { query: 'Heisenberg' } }], usage: { prompt: 300, completion: 20 } }),
        chatReply({ content: 'Plan: DMRG on the Heisenberg chain.', usage: { prompt: 420, completion: 60, cached: 100 } }),
        chatReply({ content: '{"items":["hamiltonian_heisenberg","run_dmrg"]}', usage: { prompt: 200, completion: 30 } }),
        chatReply({ content: '{"verdict":"wrong","reason":"sign of J"}', usage: { prompt: 150, completion: 25 } }),
        chatReply({ content: 'not json', usage: { prompt: 150, completion: 5 } }),
        chatReply({ content: '{"verdict":"correct","reason":"fixed"}', usage: { prompt: 180, completion: 22 } }),
        chatReply({ content: 'Flip the sign of J in hamiltonian_heisenberg.', usage: { prompt: 160, completion: 18 } }),
      );
      const recordedId = `record-${uniqueQueue('wf')}`;
      type Out = { results: LlmResult[]; ledger: { total: { inputTokens: number; outputTokens: number; costUsd: number; scriptedCalls: number } } };
      const recorded = await run<Out>('llmMiniPipeline', { model: 'openai:fake-gpt', retrieve: [retrieveSpec] }, recordedId);
      assert.equal(openai.pending, 0);
      assert.ok(recorded.ledger.total.costUsd > 0);

      // Through the CLI verb, as a user would.
      const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-cassette-'));
      const file = path.join(dir, 'recorded.json');
      const printed = await captureStdout(async () => {
        const program = new Command().exitOverride();
        registerCassette(program);
        await program.parseAsync(['node', 'physvec', 'cassette', 'export', recordedId, '--out', file, '--json']);
      });
      const summary = JSON.parse(printed) as { file: string; entries: number; model: string };
      assert.equal(summary.file, file);
      assert.equal(summary.entries, 5);
      assert.equal(summary.model, `scripted:${file}`);
      const direct = await exportCassette(client, recordedId, { store });
      const onDisk = JSON.parse(readFileSync(file, 'utf8'));
      assert.deepEqual(onDisk.entries, direct.entries);

      const replayed = await run<Out>('llmMiniPipeline', { model: summary.model, retrieve: [retrieveSpec] });
      assert.equal(openai.requests.length, 7, 'the replay made no HTTP call');
      assert.equal(replayed.results.length, recorded.results.length);
      recorded.results.forEach((a, i) => {
        const b = replayed.results[i]!;
        assert.equal(b.text, a.text, `text of call ${i}`);
        assert.deepEqual(b.parsed, a.parsed, `parsed of call ${i}`);
        assert.deepEqual(b.toolCalls, a.toolCalls, `tool calls of call ${i}`);
        assert.deepEqual([b.usage.inputTokens, b.usage.outputTokens, b.usage.cachedInputTokens], [a.usage.inputTokens, a.usage.outputTokens, a.usage.cachedInputTokens]);
        assert.equal(b.scripted, true);
        assert.equal(b.costUsd, 0);
      });
      assert.equal(replayed.ledger.total.inputTokens, recorded.ledger.total.inputTokens);
      assert.equal(replayed.ledger.total.outputTokens, recorded.ledger.total.outputTokens);
      assert.equal(replayed.ledger.total.costUsd, 0);
      assert.equal(replayed.ledger.total.scriptedCalls, 5);
    });
  });
});

async function captureStdout(fn: () => Promise<void>): Promise<string> {
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    await fn();
  } finally {
    process.stdout.write = write;
  }
  return out;
}
