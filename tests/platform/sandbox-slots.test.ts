// workers/sandbox-slots.ts: per pass of a mover, retries go to its free regular slots (claimed), then
// one to the recovery queue, and the rest stay on their queue (ahead by priority).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor } from '@temporalio/worker';
import { routerWithoutSlots, SandboxSlots } from '../../workers/sandbox-slots.js';

function startOn(slots: SandboxSlots, taskQueue: string): { finish: () => void; done: Promise<unknown> } {
  const inbound = slots.interceptor()({ info: { taskQueue } } as never).inbound as ActivityInboundCallsInterceptor;
  let finish!: () => void;
  const ended = new Promise<void>((r) => (finish = r));
  const done = inbound.execute!({} as ActivityExecuteInput, () => ended);
  return { finish, done };
}

test('a process without sandbox slots sends one retry per pass to the recovery queue and the rest to the regular queue', () => {
  const route = routerWithoutSlots();
  assert.equal(route(undefined), undefined, 'an older build\'s attempt: never moved');
  assert.equal(route('sim-recovery'), 'sim-recovery');
  assert.equal(route('sim-recovery'), 'sim', 'back to the regular queue, even for an attempt that ran on the recovery queue');
  assert.equal(route('other-recovery'), 'other-recovery', 'one per recovery queue');
  assert.equal(routerWithoutSlots()('sim-recovery'), 'sim-recovery', 'the next pass sends one again');
});

test('a mover with regular slots fills its free ones first (claimed until a start consumes them or they expire), then one to the recovery queue', async () => {
  let now = 0;
  const slots = new SandboxSlots(() => now);
  slots.serve('sim', 'sim-recovery', 2);
  let route = slots.router();
  assert.deepEqual(['sim-recovery', 'sim-recovery', 'sim-recovery', 'sim-recovery'].map((q) => route(q)), ['sim', 'sim', 'sim-recovery', 'sim']);
  // Both slots claimed: the next pass has none free.
  route = slots.router();
  assert.equal(route('sim-recovery'), 'sim-recovery');
  const a = startOn(slots, 'sim'); // consumes a claim; the slot stays taken
  now += 21_000; // the other claim expires (another worker's free slot took that retry)
  assert.equal(slots.router()('sim-recovery'), 'sim');
  const b = startOn(slots, 'sim');
  assert.equal(slots.router()('sim-recovery'), 'sim-recovery', 'both slots run');
  const c = startOn(slots, 'sim-recovery'); // a run in the recovery slot takes no regular slot
  a.finish();
  await a.done;
  assert.equal(slots.router()('sim-recovery'), 'sim');
  b.finish();
  c.finish();
  await Promise.all([b.done, c.done]);
});
