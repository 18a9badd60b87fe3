// Issue 24.3: when the server times out an attempt of a live worker (its heartbeats late), the worker
// says so in one line — the false heartbeat timeouts scripts/drill-load.ts counts. A worker shutdown
// or a workflow's cancellation is not such a timeout and says nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Context } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ATTEMPT_STARTED, HEARTBEAT_GAP, TIMED_OUT_ALIVE, timedOutAliveReporter } from '../../workers/timed-out-alive.js';

/** Runs an activity that waits for its cancellation, cancels it with `reason`, returns what the reporter printed. */
async function linesFor(reason: 'TIMED_OUT' | 'NOT_FOUND' | 'WORKER_SHUTDOWN' | 'CANCELLED'): Promise<string[]> {
  const lines: string[] = [];
  const env = new MockActivityEnvironment({ activityType: 'runJob', activityId: '11', attempt: 2, heartbeatTimeoutMs: 20_000 }, { interceptors: [timedOutAliveReporter((l) => lines.push(l))] });
  const running = env.run(async () => {
    await Context.current().cancelled;
  });
  setImmediate(() => env.cancel(reason));
  await running.catch(() => undefined);
  return lines;
}

test('the server timing out a live worker\'s attempt is one line naming the activity; shutdown and cancellation say nothing', async () => {
  const timedOut = await linesFor('TIMED_OUT');
  assert.equal(timedOut.length, 1);
  assert.match(timedOut[0]!, new RegExp(`^physvec worker: activity runJob \\(workflow [^,]+, activity 11, attempt 2\\) was ${TIMED_OUT_ALIVE} \\(TIMED_OUT; heartbeat timeout 20000 ms\\)`));
  assert.equal((await linesFor('NOT_FOUND')).length, 1);
  assert.deepEqual(await linesFor('WORKER_SHUTDOWN'), []);
  assert.deepEqual(await linesFor('CANCELLED'), []);
});

test('with attempt lines on, a worker names each attempt it starts and its own pid (the drill attributes timeouts by them)', async () => {
  const lines: string[] = [];
  const env = new MockActivityEnvironment({ activityType: 'runJob', activityId: '14', attempt: 3, heartbeatTimeoutMs: 20_000 }, { interceptors: [timedOutAliveReporter((l) => lines.push(l), true)] });
  await env.run(async () => 'done');
  assert.equal(lines.length, 1);
  const m = ATTEMPT_STARTED.exec(lines[0]!);
  assert.ok(m, lines[0]);
  assert.deepEqual([m[1]!.split('/').pop(), m[2], m[3]], ['14', '3', String(process.pid)]);
  const quiet: string[] = [];
  await new MockActivityEnvironment({}, { interceptors: [timedOutAliveReporter((l) => quiet.push(l), false)] }).run(async () => 'done');
  assert.deepEqual(quiet, [], 'off by default');
});

test('with attempt lines on, a gap between two heartbeats an activity gives is one line with its length', async () => {
  const lines: string[] = [];
  const env = new MockActivityEnvironment({ activityType: 'runJob', activityId: '15', attempt: 1, heartbeatTimeoutMs: 20_000 }, { interceptors: [timedOutAliveReporter((l) => lines.push(l), true, 200)] });
  await env.run(async () => {
    Context.current().heartbeat({ step: 1 });
    Context.current().heartbeat({ step: 2 }); // no gap
    await new Promise((r) => setTimeout(r, 400));
    Context.current().heartbeat({ step: 3 }); // a 400 ms gap against a 200 ms threshold
  });
  const gaps = lines.map((l) => HEARTBEAT_GAP.exec(l)).filter((m) => m !== null);
  assert.equal(gaps.length, 1, lines.join('\n'));
  assert.equal(gaps[0]![1]!.split('/').pop(), '15');
  assert.ok(Number(gaps[0]![3]) >= 390, gaps[0]![0]);
});
