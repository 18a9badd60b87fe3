// The load drill's "held up" lines: a worker whose event loop is blocked says so with the delay.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STALL_LINE, startStallLines } from '../../workers/stall-lines.js';

test('a blocked event loop is reported with its delay', async () => {
  const lines: string[] = [];
  const stop = startStallLines((l) => lines.push(l), 500, 150);
  await new Promise((r) => setTimeout(r, 600));
  const until = Date.now() + 600;
  while (Date.now() < until); // the event loop held for 600 ms
  await new Promise((r) => setTimeout(r, 1_100));
  stop();
  // (Other windows may be reported too on a loaded host: only the blocked one is certain.)
  const m = lines.map((l) => STALL_LINE.exec(l)).find((x) => x !== null && Number(x[2]) >= 500);
  assert.ok(m, `a line for the blocked window with its delay: ${lines.join('; ')}`);
  assert.equal(Number(m[1]), process.pid);
});
