// An LLM call re-issued after a worker crash: the lost attempt is counted, with its tokens when its
// heartbeats told them and "unknown" when they did not; the ledger and the report line carry it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lostAttempts } from '../../activities/llm/attempt-ledger.js';
import type { AttemptRecord } from '../../schemas/llm-call-details.js';
import { emptyLedger, emptyUsage, recordCall } from '../../lib/llm/accounting.js';
import { lostLine } from '../../activities/pipeline/report.js';

const ref = { sha256: 'a'.repeat(64), bytes: 1 };

test('attempts without a transcript are lost; those that reported no tokens have unknown usage', () => {
  const prior: AttemptRecord[] = [
    { attempt: 1, usage: { ...emptyUsage(), inputTokens: 10 }, exchangeRef: ref }, // failed properly: not lost
    { attempt: 2, usage: { ...emptyUsage(), inputTokens: 40, outputTokens: 5 } }, // crashed after a heartbeat
    // attempt 3 crashed before any heartbeat: no record at all
  ];
  assert.deepEqual(lostAttempts(4, prior), { count: 2, usageUnknown: 1 });
  assert.deepEqual(lostAttempts(1, []), { count: 0, usageUnknown: 0 });
  assert.deepEqual(lostAttempts(2, []), { count: 1, usageUnknown: 1 });
});

test('the ledger sums lost attempts and the report says what is known', () => {
  let l = emptyLedger();
  l = recordCall(l, { role: 'author', stage: 'author', iteration: 0 }, { usage: emptyUsage(), costUsd: 0, model: 'scripted:x', lostAttempts: { count: 1, usageUnknown: 1 } });
  l = recordCall(l, { role: 'coder', stage: 'author', iteration: 0 }, { usage: emptyUsage(), costUsd: 0, model: 'scripted:x' });
  assert.equal(l.total.lostAttempts, 1);
  assert.equal(l.byRole.author!.lostAttemptsUsageUnknown, 1);
  assert.equal(l.byRole.coder!.lostAttempts, 0);
  assert.equal(lostLine(l.total), '; 1 LLM attempt lost to worker crashes and re-issued, tokens unknown');
  assert.equal(lostLine({ lostAttempts: 2, lostAttemptsUsageUnknown: 0 }), '; 2 LLM attempts lost to worker crashes and re-issued, tokens as reported before the crash (counted above)');
  assert.equal(lostLine({}), '', 'older ledgers without the field say nothing');
});
