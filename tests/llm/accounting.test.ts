// Pure accounting: sums per role/stage/iteration/model, dollars from the price table, budgets, call keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addUsage, emptyLedger, emptyUsage, recordCall } from '../../lib/llm/accounting.js';
import { budgetSpent, remainingBudget } from '../../lib/llm/budget.js';
import { costUsd, modelInfo } from '../../lib/llm/cost.js';
import { CallSequencer, callKeyString } from '../../lib/llm/keys.js';
import { parseModelId } from '../../lib/llm/model-id.js';
import { isBudgetExhausted, llmFailureDetails } from '../../lib/llm/failures.js';
import { ApplicationFailure, ActivityFailure, RetryState } from '@temporalio/common';
import { LlmLedger } from '../../schemas/llm.js';

const usage = (i: number, o: number, extra: Partial<ReturnType<typeof emptyUsage>> = {}) => ({ ...emptyUsage(), inputTokens: i, outputTokens: o, calls: 1, ...extra });

test('recordCall sums per role, stage, iteration, model and total', () => {
  let l = emptyLedger();
  l = recordCall(l, { role: 'author', stage: 'plan', iteration: 0 }, { usage: usage(100, 10, { retries: 1 }), costUsd: 0.001, model: 'openai:a' });
  l = recordCall(l, { role: 'author', stage: 'code', iteration: 0 }, { usage: usage(200, 20), costUsd: 0.002, model: 'openai:a' });
  l = recordCall(l, { role: 'judge', stage: 'code', iteration: 1 }, { usage: usage(50, 5), costUsd: 0, model: 'scripted:x', scripted: true });
  l = recordCall(l, { role: 'judge', stage: 'code', iteration: 1 }, { usage: usage(7, 0), costUsd: 0, model: 'qwen:q', priced: false, failed: true });
  LlmLedger.parse(l);
  assert.deepEqual([l.total.inputTokens, l.total.outputTokens, l.total.calls, l.total.retries, l.total.llmCalls], [357, 35, 4, 1, 4]);
  assert.ok(Math.abs(l.total.costUsd - 0.003) < 1e-15);
  assert.deepEqual([l.total.scriptedCalls, l.total.unpricedCalls, l.total.failedLlmCalls], [1, 1, 1]);
  assert.equal(l.byRole.author!.inputTokens, 300);
  assert.equal(l.byRole.judge!.inputTokens, 57);
  assert.equal(l.byStage.code!.outputTokens, 25);
  assert.equal(l.byIteration['0']!.inputTokens, 300);
  assert.equal(l.byIteration['1']!.llmCalls, 2);
  assert.equal(l.byModel['openai:a']!.costUsd, 0.003);
  assert.deepEqual(addUsage(usage(1, 2), usage(3, 4)), usage(4, 6, { calls: 2 }));
});

test('cost: cached input at its own rate, exact keys before bare names, scripted free', () => {
  const table = { 'openai:gpt-x': { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5, supportsTemperature: true }, 'shared-model': { inputPerMTok: 1, outputPerMTok: 1, supportsTemperature: true } };
  assert.equal(costUsd({ inputTokens: 1_000_000, outputTokens: 1_000_000, cachedInputTokens: 500_000 }, table['openai:gpt-x']), 1 + 0.25 + 8);
  assert.equal(costUsd({ inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 1_000_000 }, table['shared-model']), 1, 'no cached price: input price');
  assert.equal(modelInfo(table, 'openrouter:shared-model'), table['shared-model']);
  assert.equal(modelInfo(table, 'openai:unknown'), undefined);
  assert.equal(modelInfo(table, 'scripted:demo')!.outputPerMTok, 0);
});

test('budgets: remaining from the ledger, spent when a limit is reached', () => {
  let l = emptyLedger();
  assert.equal(remainingBudget({ maxTokens: null, maxUsd: null }, l), undefined);
  l = recordCall(l, { role: 'a', stage: 's', iteration: 0 }, { usage: usage(700, 300), costUsd: 0.4, model: 'openai:a' });
  assert.deepEqual(remainingBudget({ maxTokens: 1500, maxUsd: 1 }, l), { remainingTokens: 500, remainingUsd: 0.6 });
  assert.equal(budgetSpent({ maxTokens: 1500 }, l), false);
  assert.equal(budgetSpent({ maxTokens: 1000 }, l), true);
  assert.equal(budgetSpent({ maxUsd: 0.4 }, l), true);
});

test('call keys: seq counts per (role, stage, iteration) and survives a snapshot', () => {
  const s = new CallSequencer();
  assert.equal(s.next('author', 'plan', 0).seq, 0);
  assert.equal(s.next('author', 'plan', 0).seq, 1);
  assert.equal(s.next('author', 'plan', 1).seq, 0);
  assert.equal(s.next('judge', 'plan', 0).seq, 0);
  const t = new CallSequencer(s.snapshot());
  assert.equal(callKeyString(t.next('author', 'plan', 0)), 'author/plan/0/2');
});

test('model strings', () => {
  assert.deepEqual(parseModelId('openrouter:deepseek/deepseek-chat-v3.1'), { provider: 'openrouter', model: 'deepseek/deepseek-chat-v3.1' });
  assert.throws(() => parseModelId('gpt-5'), /not a model string/);
});

test('a workflow reads budget exhaustion and the spent usage out of an ActivityFailure', () => {
  const details = { key: { role: 'a', stage: 's', iteration: 0, seq: 0 }, model: 'openai:a', usage: usage(5, 1), costUsd: 0.1 };
  const cause = ApplicationFailure.create({ type: 'BudgetExhaustedError', message: 'budget', nonRetryable: true, details: [details] });
  const af = new ActivityFailure('activity failed', 'callLlm', '1', RetryState.NON_RETRYABLE_FAILURE, 'identity', cause);
  assert.equal(isBudgetExhausted(af), true);
  assert.deepEqual(llmFailureDetails(af), details);
  assert.equal(isBudgetExhausted(new Error('x')), false);
  assert.equal(llmFailureDetails(new Error('x')), undefined);
});
