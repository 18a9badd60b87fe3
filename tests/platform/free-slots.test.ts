// workers/free-slots.ts: a retry stays on the regular queue while the mover has a free, unclaimed slot
// there; the rest go to the recovery twin.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ActivityInboundCallsInterceptor, ActivityExecuteInput } from '@temporalio/worker';
import { FreeSlots } from '../../workers/free-slots.js';

function startOn(free: FreeSlots, taskQueue: string): { finish: () => void; done: Promise<unknown> } {
  const inbound = free.interceptor()({ info: { taskQueue } } as never).inbound as ActivityInboundCallsInterceptor;
  let finish!: () => void;
  const ended = new Promise<void>((r) => (finish = r));
  const done = inbound.execute!({} as ActivityExecuteInput, () => ended);
  return { finish, done };
}

test('retries stay on the regular queue up to its free slots, then go to the recovery queue; claims expire and are consumed by starts', async () => {
  let now = 0;
  const free = new FreeSlots(() => now);
  free.serve('sim', 'sim-recovery', 2);
  assert.equal(free.retryQueue(undefined), undefined, 'no recovery queue: the retry stays where it is');
  assert.equal(free.retryQueue('other-recovery'), 'other-recovery', 'a queue this process does not serve: the holder\'s recovery queue');
  assert.equal(free.retryQueue('sim-recovery'), 'sim');
  assert.equal(free.retryQueue('sim-recovery'), 'sim');
  assert.equal(free.retryQueue('sim-recovery'), 'sim-recovery', 'both slots claimed');
  // A run starts on the regular queue: it consumes a claim, the slot stays taken.
  const a = startOn(free, 'sim');
  assert.equal(free.retryQueue('sim-recovery'), 'sim-recovery');
  now += 21_000; // the other claim expires (the retry went to another worker's free slot)
  assert.equal(free.retryQueue('sim-recovery'), 'sim');
  const b = startOn(free, 'sim');
  assert.equal(free.retryQueue('sim-recovery'), 'sim-recovery', 'both slots run');
  // A run in the recovery slot takes no regular slot.
  const c = startOn(free, 'sim-recovery');
  a.finish();
  await a.done;
  assert.equal(free.retryQueue('sim-recovery'), 'sim');
  b.finish();
  c.finish();
  await Promise.all([b.done, c.done]);
  now += 21_000;
  assert.equal(free.retryQueue('sim-recovery'), 'sim');
  assert.equal(free.retryQueue('sim-recovery'), 'sim');
});
