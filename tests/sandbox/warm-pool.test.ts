// Warm sandboxes sized to the work (issue 24 item 5): a burst of runs up to the worker's pool size
// (its sandbox slots) all start on chains started ahead, not just the first; and a warm python's
// run has the environment a cold run has, including what libraries read at import time (numba's
// settings, read when the netket zygote preloaded it, pointed its cache into the zygote's home), its
// priority and its page size (the zygote's heap was collapsed into huge pages).
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test, type TestContext } from 'node:test';
import { probeIsolation, runSandboxed, sandboxRoot, warmUpSandbox } from '../../runners/sandbox/index.js';
import { planIsolation } from '../../runners/sandbox/plan.js';
import type { SandboxResult } from '../../schemas/sandbox.js';
import { testStore, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();
process.env.PHYSVEC_SANDBOX_WARM = '1';

const run = (content: string) => runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content }], timeoutMs: 120_000 }, { store });

describe('warm sandboxes sized to the work', () => {
  let missing: string[] = [];
  before(async () => {
    missing = planIsolation(await probeIsolation(), 'auto').missing;
  });
  const needsFullChain = (t: TestContext): boolean => {
    if (missing.length === 0) return true;
    t.skip(`warm starts need every protection of the cold chain; this host lacks: ${missing.join(', ')}`);
    return false;
  };

  test('a burst of as many runs as the pool holds all start on chains started ahead, and the pool is refilled', async (t) => {
    if (!needsFullChain(t)) return;
    const warm = await warmUpSandbox('tenpy', { poolSize: 3 });
    assert.ok(warm.ok, JSON.stringify(warm));
    // One run of the burst's shape first: the pool is then refilled with chains shaped like it.
    assert.equal((await run('print(0)')).exitCode, 0);
    for (const round of [1, 2]) {
      const burst = await Promise.all([1, 2, 3].map((i) => run(`print(${i})`)));
      assert.deepEqual(burst.map((r) => r.stdoutTail.trim()), ['1', '2', '3']);
      assert.deepEqual(burst.map((r) => r.start), burst.map(() => ({ path: 'warm', reason: null, chain: 'pre-started' })), `round ${round}: ${JSON.stringify(burst.map((r) => r.start))}`);
      assert.equal(new Set(burst.map((r) => r.runId)).size, 3);
    }
  });

  test("a warm run's numba settings, threads, priority and environment are a cold run's (netket's toolchain preloads numba and imports in the background)", async (t) => {
    if (!needsFullChain(t)) return;
    const warm = await warmUpSandbox('netket');
    assert.ok(warm.ok && warm.loaded.includes('numba'), JSON.stringify(warm));
    // The indented import only picks the netket warm python (warm.ts reads import lines); it never runs.
    const script = `
import json, os
import numba.core.config as c
if False:
    import netket
print(json.dumps({
    'numba': {k: str(getattr(c, k)) for k in dir(c) if k.isupper() and not k.startswith('_')},
    'threads': len(os.listdir('/proc/self/task')),
    'nice': os.getpriority(os.PRIO_PROCESS, 0),
    # Memory in 2 MiB pages: a fork of a zygote whose heap was collapsed into them computed 6-12 % slower.
    'anon_huge_kb': int(next(l for l in open('/proc/self/smaps_rollup') if l.startswith('AnonHugePages')).split()[1]),
    'env': dict(os.environ),
}))`;
    const describeRun = async (mode: '0' | '1'): Promise<{ r: SandboxResult; info: Record<string, unknown> }> => {
      process.env.PHYSVEC_SANDBOX_WARM = mode;
      try {
        const r = await run(script);
        assert.equal(r.exitCode, 0, r.stderrTail);
        const own = path.join(sandboxRoot(), r.runId);
        return { r, info: JSON.parse(r.stdoutTail.trim().replaceAll(own, '<workdir>')) as Record<string, unknown> };
      } finally {
        process.env.PHYSVEC_SANDBOX_WARM = '1';
      }
    };
    const warmRun = await describeRun('1');
    const coldRun = await describeRun('0');
    assert.equal(warmRun.r.start?.path, 'warm', JSON.stringify(warmRun.r.start));
    assert.equal(coldRun.r.start?.path, 'cold');
    const numba = warmRun.info.numba as Record<string, string>;
    assert.equal(numba.CACHE_DIR, '<workdir>/.sandbox/numba', 'numba caches in the run\'s own dir, not the zygote\'s home');
    assert.deepEqual(warmRun.info, coldRun.info);
  });
});
