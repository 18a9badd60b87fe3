// Issue 24: on a busy host a probe that times out is tried again with a doubled timeout, and one that
// never finishes is 'timed out' (the host was too busy to tell), never 'unavailable'. Real slow
// probes (the project venv's Python sleeping) on profiles built here; absent interpreters and failing
// probes keep their states. The worker's detection cache forgets a 'timed out' result.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { z } from 'zod';
import { detectToolchain } from '../../activities/toolchains/detect.js';
import { cachedDetection } from '../../activities/toolchains/detection-cache.js';
import { probeTries } from '../../activities/toolchains/probe.js';
import { toolchainsText } from '../../cli/commands/toolchains.js';
import { loadToolchainConfig } from '../../lib/toolchains/config.js';
import { ToolchainProfile, type ToolchainStatus } from '../../schemas/toolchain.js';

const config = loadToolchainConfig();
const tenpy = config.profiles.find((p) => p.name === 'tenpy')!;
/** A quick version probe, so only the detect probe is slow. */
const quickVersions = { argv: ['{interpreter}', '-c', 'import json; print(json.dumps({"physics-tenpy": "0.0"}))'], output: 'json' as const, timeoutMs: 60_000 };
const profile = (over: Partial<z.input<typeof ToolchainProfile>> & { name: string }): ToolchainProfile =>
  ToolchainProfile.parse({ ...tenpy, substitutes: [], versionProbe: quickVersions, ...over });
const sleeper = (seconds: number, timeoutMs: number, timeoutBudgetMs?: number) => ({
  argv: ['{interpreter}', '-c', `import time; time.sleep(${seconds}); print('ok')`],
  timeoutMs,
  ...(timeoutBudgetMs ? { timeoutBudgetMs } : {}),
});

test('the tries double from timeoutMs within a budget of 7 × timeoutMs by default; a configured budget cuts the last one', () => {
  assert.deepEqual(probeTries({ timeoutMs: 60_000 }), [60_000, 120_000, 240_000]);
  assert.deepEqual(probeTries({ timeoutMs: 1000, timeoutBudgetMs: 5000 }), [1000, 2000, 2000]);
  assert.deepEqual(probeTries({ timeoutMs: 1000, timeoutBudgetMs: 500 }), [1000], 'a budget below one try still allows that try');
});

test('a probe that needs 3 s with timeoutMs 1000 succeeds on its third try (1 s, 2 s, 4 s): available', async () => {
  const s = await detectToolchain(profile({ name: 'slow', detect: sleeper(3, 1000) }));
  assert.equal(s.state, 'available', s.reason);
  assert.equal(s.available, true);
  assert.equal(s.version, '0.0');
  assert.ok(s.detectMs >= 3000 + 1000, `it waited through the timed-out tries (${s.detectMs} ms)`);
});

test('a probe slower than its whole budget is "timed out": the reason names the tries and the load and says it was not found missing', async () => {
  const s = await detectToolchain(profile({ name: 'stuck', detect: sleeper(30, 500) }));
  assert.equal(s.state, 'timed out');
  assert.equal(s.available, false);
  assert.deepEqual(s.busy?.triesMs, [500, 1000, 2000]);
  assert.ok(s.busy!.cores >= 1 && s.busy!.load1 >= 0);
  assert.match(s.reason!, /^`\S+python\S* -c …` did not finish within 0\.5\+1\+2 s at load [\d.]+ on \d+ cores?: the host is too busy to confirm TeNPy \(physics-tenpy\); it was not found missing$/);
  assert.doesNotMatch(s.reason!, /unavailable|not installed|pip install/);
  // The version probe goes through the same runner: its timeout is no absence either.
  const v = await detectToolchain(profile({ name: 'stuck-version', versionProbe: { ...quickVersions, ...sleeper(30, 300, 600) } }));
  assert.equal(v.state, 'timed out');
  assert.deepEqual(v.busy?.triesMs, [300, 300]);
});

test('an absent interpreter is still "not installed", a probe that exits 1 still "unavailable" (and not retried)', async () => {
  const absent = await detectToolchain(profile({ name: 'absent', interpreter: '.venv/bin/no-such-python-xyz' }));
  assert.deepEqual([absent.state, absent.reason], ['not installed', '.venv/bin/no-such-python-xyz does not exist']);
  const failing = await detectToolchain(profile({ name: 'fails', detect: { argv: ['{interpreter}', '-c', 'import sys; sys.exit(1)'], timeoutMs: 30_000 } }));
  assert.equal(failing.state, 'unavailable');
  assert.match(failing.reason!, /exited with 1/);
  assert.equal(failing.busy, undefined);
});

test('`physvec toolchains` shows a timed-out profile as "timed out" with its reason', () => {
  const s: ToolchainStatus = {
    profile: 'tenpy', language: 'python', topics: ['dmrg'], detectMs: 3500, available: false, state: 'timed out', versions: {}, version: null, interpreter: '/x/python',
    reason: '`/x/python -c …` did not finish within 120+240+480 s at load 47 on 2 cores: the host is too busy to confirm TeNPy (physics-tenpy); it was not found missing',
  };
  const row = toolchainsText([s], config).find((l) => l.startsWith('tenpy '))!;
  assert.match(row, /^tenpy\s+timed out\s+-\s+python\s+dmrg\s+`\/x\/python -c …` did not finish within 120\+240\+480 s at load 47 on 2 cores: .*it was not found missing; substitute for itensors$/);
});

test('the worker\'s detection cache keeps an available result but checks a timed-out one again', async () => {
  const states: Array<ToolchainStatus['state']> = ['timed out', 'available'];
  let calls = 0;
  const detect = cachedDetection(async (p) => {
    calls += 1;
    const state = states.shift() ?? 'available';
    return { profile: p.name, language: p.language, topics: p.topics, detectMs: 1, available: state === 'available', state, versions: {}, version: null, interpreter: '/x' };
  });
  assert.equal((await detect(['tenpy']))[0]!.state, 'timed out');
  assert.equal((await detect(['tenpy']))[0]!.state, 'available', 'the timed-out result was not kept');
  assert.equal((await detect(['tenpy']))[0]!.state, 'available');
  assert.equal(calls, 2, 'the available result was kept');
});
