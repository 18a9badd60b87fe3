// workers/sandbox-slots.ts: where a retry waits (a free regular slot of the mover, else the recovery
// queue); the recovery worker's permits (one beside busy regular slots, slots + 1 beside idle ones);
// no more than slots + 1 runs at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, ActivitySlotInfo, CustomSlotSupplier, SlotReserveContext } from '@temporalio/worker';
import { SandboxSlots } from '../../workers/sandbox-slots.js';

/** A task this process took on `taskQueue`: `began` once it runs past the slot wait, `finish()` ends it. */
function take(slots: SandboxSlots, taskQueue: string) {
  const beats: unknown[] = [];
  const ctx = { info: { taskQueue, heartbeatDetails: { runId: 'r1' } }, heartbeat: (d: unknown) => beats.push(d), cancellationSignal: new AbortController().signal };
  const inbound = slots.interceptor()(ctx as never).inbound as ActivityInboundCallsInterceptor;
  let finish!: () => void;
  let began = false;
  const ended = new Promise<void>((r) => (finish = r));
  const done = inbound.execute!({} as ActivityExecuteInput, () => {
    began = true;
    return ended;
  });
  return { finish, done, beats, began: () => began };
}

const tick = () => new Promise((r) => setImmediate(r));
const reserveCtx = {} as SlotReserveContext;

test('retries stay on the regular queue up to its free slots, then go to the recovery queue; claims expire and are consumed by starts', async () => {
  let now = 0;
  const slots = new SandboxSlots(() => now);
  slots.serve('sim', 'sim-recovery', 2);
  assert.equal(slots.retryQueue(undefined), undefined, 'no recovery queue: the retry stays where it is');
  assert.equal(slots.retryQueue('other-recovery'), 'other-recovery', 'a queue this process does not serve: the holder\'s recovery queue');
  assert.equal(slots.retryQueue('sim-recovery'), 'sim');
  assert.equal(slots.retryQueue('sim-recovery'), 'sim');
  assert.equal(slots.retryQueue('sim-recovery'), 'sim-recovery', 'both slots claimed');
  const a = take(slots, 'sim'); // consumes a claim; the slot stays taken
  assert.equal(slots.retryQueue('sim-recovery'), 'sim-recovery');
  now += 21_000; // the other claim expires (another worker's free slot took that retry)
  assert.equal(slots.retryQueue('sim-recovery'), 'sim');
  const b = take(slots, 'sim');
  assert.equal(slots.retryQueue('sim-recovery'), 'sim-recovery', 'both slots run');
  const c = take(slots, 'sim-recovery'); // a run in the recovery worker takes no regular slot
  a.finish();
  await a.done;
  assert.equal(slots.retryQueue('sim-recovery'), 'sim');
  b.finish();
  c.finish();
  await Promise.all([b.done, c.done]);
});

test('the recovery worker gets slots + 1 permits beside idle regular slots and one beside busy ones; a run past slots + 1 waits for one to end', async () => {
  const slots = new SandboxSlots();
  slots.serve('sim', 'sim-recovery', 2);
  const supplier = slots.recoverySupplier('sim-recovery') as CustomSlotSupplier<ActivitySlotInfo>;
  // Idle regular slots: three permits at once (the restarted worker's mass recovery), no fourth.
  const permits = [supplier.tryReserveSlot(reserveCtx), supplier.tryReserveSlot(reserveCtx), supplier.tryReserveSlot(reserveCtx)];
  assert.ok(permits.every((p) => p !== null));
  assert.equal(supplier.tryReserveSlot(reserveCtx), null);
  const recoveries = [take(slots, 'sim-recovery'), take(slots, 'sim-recovery'), take(slots, 'sim-recovery')];
  await tick();
  assert.ok(recoveries.every((r) => r.began()));
  // A regular task arriving now (its permit was reserved while it polled) waits: 3 runs is slots + 1.
  const regular = take(slots, 'sim');
  await tick();
  assert.equal(regular.began(), false, 'no fourth run at once');
  recoveries[0]!.finish();
  await recoveries[0]!.done;
  supplier.releaseSlot({ permit: permits[0]! });
  await tick();
  assert.equal(regular.began(), true, 'it runs once a recovery ends');
  // One regular run and two recoveries: the two recovery permits still held leave no room for another.
  assert.equal(supplier.tryReserveSlot(reserveCtx), null);
  const waiting = new AbortController();
  let reserved = false;
  const pending = supplier.reserveSlot(reserveCtx, waiting.signal).then(() => (reserved = true));
  recoveries[1]!.finish();
  await recoveries[1]!.done;
  supplier.releaseSlot({ permit: permits[1]! });
  await pending;
  assert.equal(reserved, true, 'a permit once a recovery ended');
  // Both regular slots busy: at most one recovery permit.
  recoveries[2]!.finish();
  await recoveries[2]!.done;
  supplier.releaseSlot({ permit: permits[2]! });
  const regular2 = take(slots, 'sim');
  await tick();
  assert.equal(regular2.began(), true);
  // Held now: the permit `pending` got. 1 + 2 regular = slots + 1: no second.
  assert.equal(supplier.tryReserveSlot(reserveCtx), null);
  const aborted = new AbortController();
  const refused = supplier.reserveSlot(reserveCtx, aborted.signal);
  aborted.abort(new Error('poller stopped'));
  await assert.rejects(refused, /poller stopped/);
  regular.finish();
  regular2.finish();
  await Promise.all([regular.done, regular2.done]);
});
