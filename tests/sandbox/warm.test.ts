// Warm starts: a run forked from the worker's pre-imported python gets the same process a cold
// start gets (credentials, capabilities, seccomp, namespaces, limits, environment, view), two warm
// runs of one profile share nothing, and a broken zygote falls back to cold saying so.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test, type TestContext } from 'node:test';
import { probeIsolation, runSandboxed, sandboxRoot, warmUpSandbox, type IsolationProbe } from '../../runners/sandbox/index.js';
import { planIsolation } from '../../runners/sandbox/plan.js';
import { pidsOfUid } from '../../runners/sandbox/process-tree.js';
import { holderUidOf } from '../../runners/sandbox/uid.js';
import { EARLY_ARM_PHASE } from '../../runners/sandbox/warm-run.js';
import type { SandboxResult } from '../../schemas/sandbox.js';
import { hostileScript, pidsWithMarker, testStore, useTestStateDir, waitFor } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();
// Warm starts are the default (runners/sandbox/warm.ts); set explicitly, as this file is about them.
process.env.PHYSVEC_SANDBOX_WARM = '1';

function listSandboxRoot(): string[] {
  try {
    return readdirSync(sandboxRoot());
  } catch {
    return [];
  }
}

function hostNamespaces(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const ns of ['ipc', 'uts', 'net', 'pid', 'mnt', 'user', 'cgroup']) out[ns] = statSync(`/proc/self/ns/${ns}`).ino;
  return out;
}

async function describeRun(warm: boolean, limits: { cpuSeconds?: number; memoryMb?: number } = { cpuSeconds: 60 }, phases: string[] = []): Promise<{ result: SandboxResult; info: Record<string, unknown> }> {
  const before = process.env.PHYSVEC_SANDBOX_WARM;
  process.env.PHYSVEC_SANDBOX_WARM = warm ? '1' : '0';
  try {
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', args: ['--flag', 'x y'], files: [hostileScript('describe-process.py')], env: { PHYSVEC_EXTRA_SETTING: 'on', TZ: 'UTC' }, ...limits, timeoutMs: 120_000 },
      { store, onPhases: (p) => phases.push(...p.map(([name]) => name)) },
    );
    assert.equal(result.exitCode, 0, result.stderrTail);
    return { result, info: JSON.parse(result.stdoutTail) as Record<string, unknown> };
  } finally {
    if (before === undefined) delete process.env.PHYSVEC_SANDBOX_WARM;
    else process.env.PHYSVEC_SANDBOX_WARM = before;
  }
}

/** Replace what differs by design between two runs (their uid, work dir) so the rest can be compared. */
function normalised(info: Record<string, unknown>, result: SandboxResult): Record<string, unknown> {
  const uid = result.isolation.uid!;
  const workDir = path.join(sandboxRoot(), result.runId);
  const holder = holderUidOf(uid);
  const text = JSON.stringify(info, (_k, v: unknown) => (v === uid ? '<uid>' : v === holder ? '<holder>' : typeof v === 'string' ? v.replaceAll(workDir, '<workdir>') : v));
  const out = JSON.parse(text) as Record<string, unknown>;
  // A warm run also sees its holder (PID 2), under a uid of its own it cannot signal or trace.
  if (Array.isArray(out.visible_uids)) out.visible_uids = out.visible_uids.filter((u) => u !== '<holder>');
  return out;
}

/** What two runs' descriptions must share: all but their own namespaces and the fds (cold python inherits one of bwrap's). */
const comparable = (r: { info: Record<string, unknown>; result: SandboxResult }) => ({ ...normalised(r.info, r.result), namespaces: undefined, open_fds: undefined });

describe('warm sandbox starts', () => {
  let probe: IsolationProbe;
  let fullChain = false;
  before(async () => {
    probe = await probeIsolation();
    fullChain = planIsolation(probe, 'auto').missing.length === 0;
    // As a worker does at start: runs arriving while the warm python still imports go cold.
    if (fullChain) console.log(`# warm python: ${JSON.stringify(await warmUpSandbox())}`);
  });
  const needsFullChain = (t: TestContext): boolean => {
    if (fullChain) return true;
    t.skip(`warm starts need every protection of the cold chain; this host lacks: ${planIsolation(probe, 'auto').missing.join(', ')}`);
    return false;
  };

  test('a warm run is the same process a cold run is: credentials, caps, seccomp, namespaces, limits, env, view', async (t) => {
    if (!needsFullChain(t)) return;
    const warm = await describeRun(true);
    const cold = await describeRun(false);
    assert.equal(warm.result.start?.path, 'warm', `warm run started ${JSON.stringify(warm.result.start)}`);
    assert.equal(cold.result.start?.path, 'cold');
    assert.deepEqual(warm.result.isolation.inForce, cold.result.isolation.inForce);
    assert.deepEqual(warm.result.isolation.missing, []);
    assert.deepEqual(warm.result.envNames, cold.result.envNames);
    // Namespaces are each run's own (compared with the host's below).
    assert.deepEqual(comparable(warm), comparable(cold));
    assert.deepEqual(warm.info.open_fds, [0, 1, 2, 3], 'the warm run holds no fd of the zygote (3 is its own listing)');
    // And what they are is what isolation promises (not just equal to each other).
    const w = warm.info as { uid: number[]; caps: Record<string, string>; seccomp: string; noNewPrivs: string; namespaces: Record<string, number>; net: string[] };
    assert.deepEqual(w.uid, [warm.result.isolation.uid, warm.result.isolation.uid, warm.result.isolation.uid]);
    assert.ok(Object.values(w.caps).every((v) => /^0+$/.test(v)), `capabilities left: ${JSON.stringify(w.caps)}`);
    assert.equal(w.seccomp, '2');
    assert.equal(w.noNewPrivs, '1');
    const host = hostNamespaces();
    for (const ns of ['ipc', 'uts', 'net', 'pid', 'mnt']) assert.notEqual(w.namespaces[ns], host[ns], `${ns} namespace shared with the host`);
    assert.deepEqual(w.net, ['lo']);
  });

  test('a run on a chain started and armed ahead of it is the same process a cold run is; a request shaped otherwise starts its own', async (t) => {
    if (!needsFullChain(t)) return;
    // Each warm run leaves a chain of its own shape started ahead for the next run of its profile.
    await describeRun(true, {});
    const ahead = await describeRun(true, {});
    const cold = await describeRun(false, {});
    assert.deepEqual(ahead.result.start, { path: 'warm', reason: null, chain: 'pre-started' });
    assert.deepEqual(comparable(ahead), comparable(cold));
    assert.deepEqual(ahead.info.open_fds, [0, 1, 2, 3], 'the run holds no fd of the zygote or of its arming');
    const uids = (ahead.info as { uid: number[] }).uid;
    assert.deepEqual(uids, [ahead.result.isolation.uid, ahead.result.isolation.uid, ahead.result.isolation.uid]);
    // Another memory cap means another /tmp size and other prlimit caps: the waiting chain is not this run's.
    const phases: string[] = [];
    const other = await describeRun(true, { memoryMb: 2048 }, phases);
    assert.deepEqual(other.result.start, { path: 'warm', reason: null, chain: 'per-run' });
    // Its own chain: the run process was forked into the run's pid namespace once bwrap reported it, before the holder was up.
    assert.ok(phases.includes(EARLY_ARM_PHASE), phases.join(' | '));
    assert.deepEqual({ ...comparable(other), limits: undefined }, { ...comparable(cold), limits: undefined });
    assert.deepEqual((other.info as { limits: Record<string, number[]> }).limits.RLIMIT_DATA, [2048 * 1024 * 1024, 2048 * 1024 * 1024]);
    process.env.PHYSVEC_SANDBOX_PRESTART = '0';
    try {
      const off = await describeRun(true, { memoryMb: 2048 });
      assert.deepEqual(off.result.start, { path: 'warm', reason: null, chain: 'per-run' });
    } finally {
      delete process.env.PHYSVEC_SANDBOX_PRESTART;
    }
    // The discarded chain was cleaned up; what is left is the one chain waiting for the next run.
    await waitFor(() => listSandboxRoot().filter((n) => n !== '.trash').length <= 1 || null, 10_000, 'the discarded chain to be removed');
  });

  test("two warm runs of one profile cannot see each other's files, environment or module state", async (t) => {
    if (!needsFullChain(t)) return;
    const first = `
import os, sys, time, types, signal, random, numpy, tenpy, matplotlib
open('/tmp/first-run.txt', 'w').write('first')
open('/dev/shm/first-run.txt', 'w').write('first')
open('mine.txt', 'w').write('first')
os.environ['FIRST_RUN_SECRET'] = 'leaked'
sys.modules['first_run_module'] = types.ModuleType('first_run_module')
numpy.first_run_marker = 1
tenpy.first_run_marker = 1
matplotlib.rcParams['lines.linewidth'] = 9.5
signal.signal(signal.SIGTERM, signal.SIG_IGN)
sys.path.insert(0, '/first-run-path')
print(random.random(), numpy.random.random(), flush=True)
open('ready', 'w').write('1')
while not os.path.exists('release'):
    time.sleep(0.05)
`;
    const second = `
import os, sys, json, signal, random, numpy, tenpy, matplotlib
first_dir = sys.argv[1]
def can_read(p):
    try:
        open(p).read()
        return True
    except OSError:
        return False
print(json.dumps({
    'tmp': 'first-run.txt' in os.listdir('/tmp'),
    'shm': 'first-run.txt' in os.listdir('/dev/shm'),
    'first_tmp_via_proc': any(can_read(f'/proc/{p}/root/tmp/first-run.txt') for p in os.listdir('/proc') if p.isdigit()),
    'first_workdir': can_read(os.path.join(first_dir, 'mine.txt')),
    'env': 'FIRST_RUN_SECRET' in os.environ,
    'module': 'first_run_module' in sys.modules,
    'numpy_marker': hasattr(numpy, 'first_run_marker'),
    'tenpy_marker': hasattr(tenpy, 'first_run_marker'),
    'linewidth': matplotlib.rcParams['lines.linewidth'],
    'sigterm_default': signal.getsignal(signal.SIGTERM) == signal.SIG_DFL,
    'path': '/first-run-path' in sys.path,
    'random': [random.random(), numpy.random.random()],
}))
`;
    const firstRun = runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: first }], timeoutMs: 120_000 }, { store });
    // The first run's work dir, found from the host once the run says it is ready.
    const firstDir = await waitFor(() => {
      for (const name of listSandboxRoot()) {
        const dir = path.join(sandboxRoot(), name);
        try {
          if (readFileSync(path.join(dir, 'ready'), 'utf8') === '1') return dir;
        } catch {
          // Not this one.
        }
      }
      return null;
    }, 90_000, 'the first run to be ready');
    const secondResult = await runSandboxed({ language: 'python', entry: 'main.py', args: [firstDir], files: [{ path: 'main.py', content: second }], timeoutMs: 120_000 }, { store });
    writeFileSync(path.join(firstDir, 'release'), '1');
    const firstResult = await firstRun;
    assert.equal(firstResult.exitCode, 0, firstResult.stderrTail);
    assert.equal(secondResult.exitCode, 0, secondResult.stderrTail);
    assert.equal(firstResult.start?.path, 'warm', JSON.stringify(firstResult.start));
    assert.equal(secondResult.start?.path, 'warm', JSON.stringify(secondResult.start));
    assert.notEqual(firstResult.isolation.uid, secondResult.isolation.uid);
    const seen = JSON.parse(secondResult.stdoutTail) as Record<string, unknown> & { random: number[] };
    const [r1, n1] = firstResult.stdoutTail.trim().split(' ').map(Number);
    assert.deepEqual(
      { ...seen, random: undefined },
      {
        tmp: false, shm: false, first_tmp_via_proc: false, first_workdir: false, env: false, module: false, numpy_marker: false, tenpy_marker: false,
        linewidth: 1.5, sigterm_default: true, path: false, random: undefined,
      },
    );
    // Each fork reseeds: the two runs do not draw the same "random" numbers.
    assert.notEqual(seen.random[0], r1);
    assert.notEqual(seen.random[1], n1);
  });

  // hostile.test.ts runs this first, while a fresh process's warm python is still importing (so
  // cold there); here it runs on a warm one.
  test('warm: an infinite loop with detached grandchildren is killed at the timeout, all of them', async (t) => {
    if (!needsFullChain(t)) return;
    const marker = `physvec-warm-marker-${randomUUID()}`;
    const started = Date.now();
    const result = await runSandboxed({ language: 'python', entry: 'main.py', files: [hostileScript('spawn-grandchildren.py')], args: [marker], timeoutMs: 6_000 }, { store });
    assert.equal(result.start?.path, 'warm', JSON.stringify(result.start));
    assert.equal(result.killedReason, 'timeout');
    assert.match(result.stdoutTail, /started/);
    assert.ok(Date.now() - started < 20_000, 'the kill is prompt');
    assert.deepEqual(pidsWithMarker(marker), [], 'processes survived the timeout');
    assert.deepEqual(pidsOfUid(result.isolation.uid!), [], 'processes of the run uid survived');
  });

  // Regression: the holder once wrote its readiness byte through a momentary fd 1 redirection, and
  // a warm run taking the holder's fd 1 in that moment got the readiness pipe as its stdout.
  test('warm runs interleaved with cold ones each write to their own stdout', async (t) => {
    if (!needsFullChain(t)) return;
    for (let i = 0; i < 6; i++) {
      process.env.PHYSVEC_SANDBOX_WARM = i % 2 ? '1' : '0';
      const r = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: `import sys; print(${i}); print(${i}, file=sys.stderr)` }] }, { store });
      assert.equal(r.start?.path, i % 2 ? 'warm' : 'cold');
      assert.equal(r.exitCode, 0, r.stderrTail);
      assert.equal(r.stdoutTail, `${i}\n`);
      assert.equal(r.stderrTail, `${i}\n`);
    }
    process.env.PHYSVEC_SANDBOX_WARM = '1';
  });

  test('PHYSVEC_SANDBOX_WARM=0 starts cold and says so', async () => {
    process.env.PHYSVEC_SANDBOX_WARM = '0';
    try {
      const result = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print(1)' }] }, { store });
      assert.equal(result.exitCode, 0);
      assert.deepEqual(result.start, { path: 'cold', reason: 'warm starts are switched off (PHYSVEC_SANDBOX_WARM=0)' });
    } finally {
      process.env.PHYSVEC_SANDBOX_WARM = '1';
    }
  });

  test('a request setting an import-time variable starts cold, with the reason', async (t) => {
    if (!needsFullChain(t)) return;
    const result = await runSandboxed({ language: 'python', entry: 'main.py', env: { OMP_NUM_THREADS: '2' }, files: [{ path: 'main.py', content: 'import os; print(os.environ["OMP_NUM_THREADS"])' }] }, { store });
    assert.equal(result.stdoutTail.trim(), '2');
    assert.equal(result.start?.path, 'cold');
    assert.match(result.start?.reason ?? '', /OMP_NUM_THREADS, read at import time/);
  });
});

describe('a warm python that dies', () => {
  test('a run in flight is reported, not hung; the next runs still succeed (cold, saying why, until a new one is up)', async (t) => {
    const plan = planIsolation(await probeIsolation(), 'auto');
    if (plan.missing.length) return t.skip(`warm starts need the full chain; missing ${plan.missing.join(', ')}`);
    await warmUpSandbox();
    const warmUp = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print(1)' }] }, { store });
    assert.equal(warmUp.start?.path, 'warm', JSON.stringify(warmUp.start));
    const inFlight = runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'import time; open("ready","w").write("1"); time.sleep(8)' }], timeoutMs: 90_000 }, { store });
    await waitFor(() => listSandboxRoot().some((n) => { try { return statSync(path.join(sandboxRoot(), n, 'ready')).isFile(); } catch { return false; } }), 60_000, 'the run in flight');
    const zygotes = pidsWithMarker('runners/sandbox/zygote.py').filter((pid) => readFileSync(`/proc/${pid}/status`, 'utf8').includes(`PPid:\t${process.pid}\n`));
    assert.equal(zygotes.length, 1, `zygote pids ${zygotes.join(',')}`);
    process.kill(zygotes[0]!, 'SIGKILL');
    const after = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print(2)' }] }, { store });
    assert.equal(after.stdoutTail.trim(), '2');
    assert.equal(after.start?.path, 'cold');
    assert.match(after.start?.reason ?? '', /warm python/);
    // The run in flight lives on (its process does not belong to the zygote) and reports its end.
    const flown = await inFlight;
    assert.equal(flown.start?.path, 'warm');
    assert.equal(flown.timedOut, false);
  });
});
