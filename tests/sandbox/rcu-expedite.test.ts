// A worker speeds up its runs' cgroup moves by turning on the kernel's expedited RCU grace periods
// once, says so, and leaves the kernel alone when asked or when it cannot (runners/sandbox/rcu-expedite.ts).
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { expediteRcuGracePeriods, RCU_EXPEDITED_ENV } from '../../runners/sandbox/rcu-expedite.js';

const knob = (value: string) => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'rcu-')), 'rcu_expedited');
  writeFileSync(file, `${value}\n`);
  return file;
};

test('a kernel at the normal pace is switched to expedited grace periods, with one line saying so', () => {
  const file = knob('0');
  assert.match(expediteRcuGracePeriods(file, {}) ?? '', /RCU grace periods expedited .* = 1\), so a run enters its cgroup in ~0\.3 ms instead of ~11 ms; PHYSVEC_SANDBOX_RCU_EXPEDITED=0 leaves/);
  assert.equal(readFileSync(file, 'utf8').trim(), '1');
});

test('already expedited, no such knob, or the operator said 0: the kernel is left as it is and nothing is said', () => {
  const on = knob('1');
  assert.equal(expediteRcuGracePeriods(on, {}), null);
  assert.equal(expediteRcuGracePeriods('/nonexistent/rcu_expedited', {}), null);
  const off = knob('0');
  assert.equal(expediteRcuGracePeriods(off, { [RCU_EXPEDITED_ENV]: '0' }), null);
  assert.equal(readFileSync(off, 'utf8').trim(), '0');
});

test('a knob it may not write is said plainly, not thrown', (t) => {
  if (process.getuid?.() === 0) return t.skip('root writes a read-only file regardless: this case needs a non-root worker');
  const file = knob('0');
  chmodSync(file, 0o444);
  assert.match(expediteRcuGracePeriods(file, {}) ?? '', /normal RCU pace .* is not writable \(EACCES\)/);
});
