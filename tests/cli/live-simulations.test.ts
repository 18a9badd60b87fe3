// The running simulations `physvec status` shows, read from pending activities' heartbeat details
// as the server returns them (JSON payloads): progress values, checkpoint, attempt, job label; other
// activities (LLM calls, light steps) and malformed details are left out or shown without progress.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultPayloadConverter } from '@temporalio/common';
import { liveSimulations } from '../../cli/runs/live-simulations.js';
import { largeQueueLimits } from '../../workers/large-queue.js';

const sha = 'a'.repeat(64);
function pending(details: unknown, attempt = 1, name = 'runJob') {
  return { activityType: { name }, attempt, heartbeatDetails: { payloads: [defaultPayloadConverter.toPayload(details)] } } as never;
}

test('status lists sandbox runs with their latest progress and checkpoint', () => {
  const sims = liveSimulations([
    pending({ runId: 'r1', label: 'full', elapsedMs: 192_000, ownFailures: 0, progress: { values: { sweep: 7, max_sweeps: 20, E: -15.40661234567 }, at: 1 }, checkpoint: { manifest: { sha256: sha, bytes: 10 }, files: 1, bytes: 2048, uploads: 7, uploadedBytes: 9000, at: 2, restoredAtAttempt: 2 } }, 2),
    pending({ usage: { inputTokens: 5 } }, 1, 'callLlm'),
    pending({ runId: 'r2', label: 'unit:site_x', elapsedMs: 4000, progress: 'garbage' }),
  ]);
  assert.equal(sims.length, 2, 'the LLM call is not a simulation');
  assert.equal(sims[0]!.line, 'final run: sweep 7/20, E -15.406612 (attempt 2; checkpoint 1 file(s), 2 KiB, 7 upload(s), restored) 3m12s');
  assert.equal(sims[0]!.progress?.values.sweep, 7);
  const vmc = liveSimulations([pending({ runId: 'r3', label: 'full', elapsedMs: 61_000, progress: { values: { run: 'vmc_a', iteration: 120, n_iter: 3000, E: -12.5 }, at: 1 } })]);
  assert.match(vmc[0]!.line, /^final run: run vmc_a, iteration 120\/3000, E -12.5 1m01s$/, 'iteration/n_iter read as one counter');
  const unrelated = liveSimulations([pending({ runId: 'r4', label: 'full', progress: { values: { chi: 64, max_chi_seen: 80, n_up: 5 }, at: 1 } })]);
  assert.match(unrelated[0]!.line, /chi 64\/80|chi 64, max_chi_seen 80/, 'a loosely named total is paired or kept, never lost');
  assert.match(unrelated[0]!.line, /n_up 5/);
  assert.equal(sims[1]!.progress, null, 'malformed progress is dropped, the run still listed');
  assert.match(sims[1]!.line, /^unit:site_x: no progress reported 4s$/);
});

test('a checkpoint limit breach is one line of the status, even before any snapshot was taken', () => {
  const [first] = liveSimulations([pending({ runId: 'r5', label: 'full', elapsedMs: 30_000, checkpointLimit: { reason: 'over 1024 MiB (PHYSVEC_CHECKPOINT_MAX_MB)', skipped: 3 } })]);
  assert.equal(first!.line, 'final run: no progress reported 30s — checkpoint not saved: over 1024 MiB (PHYSVEC_CHECKPOINT_MAX_MB); 3 snapshots skipped');
  assert.equal(first!.checkpoint, null);
});

test('the large queue takes its limits from the environment, within the sandbox maximum', () => {
  assert.deepEqual(largeQueueLimits({ PHYSVEC_LARGE_MEMORY_MB: '65536', PHYSVEC_LARGE_MAX_HOURS: '6' }), { memoryMb: 65536, maxTimeoutMs: 6 * 3600_000 });
  assert.equal(largeQueueLimits({ PHYSVEC_LARGE_MAX_HOURS: '100' }).maxTimeoutMs, 24 * 3600_000);
  assert.ok(largeQueueLimits({}).memoryMb > 0);
});
