// When a protection can't be had the run still happens and the report says what was missing —
// and the report is honest: what it calls missing really is missing.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { planIsolation } from '../../runners/sandbox/plan.js';
import { describeSandboxProtections, probeIsolation, runSandboxed, type IsolationProbe } from '../../runners/sandbox/index.js';
import { hostileScript, pidsWithMarker, testStore, useTestStateDir, waitFor } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();

const NO_BWRAP = (p: IsolationProbe): IsolationProbe => ({ ...p, bwrap: { ...p.bwrap, works: false, error: 'bwrap disabled by the test' } });

async function withLoopbackServer<T>(fn: (port: number, connections: () => number) => Promise<T>): Promise<T> {
  let n = 0;
  const server = net.createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await fn((server.address() as net.AddressInfo).port, () => n);
  } finally {
    server.close();
  }
}

describe('isolation fallbacks', () => {
  test('planIsolation names every missing protection', async () => {
    const bare: IsolationProbe = {
      root: false,
      bwrap: { path: null, works: false, version: null, supportsSize: false, error: 'bwrap (bubblewrap) is not installed' },
      setpriv: null,
      prlimit: null,
      cgroup: { ok: false, error: 'the host has no memory cgroup controller mounted' },
      seccomp: { works: false, error: 'this bwrap has no --seccomp option' },
      du: null,
    };
    const plan = planIsolation(bare, 'auto');
    assert.equal(plan.mode, 'processes-only');
    assert.deepEqual(plan.missing, [
      'network', 'readonly-root', 'private-tmp', 'pid-namespace', 'unprivileged-user', 'resource-limits',
      'run-memory-limit', 'run-process-limit', 'disk-limit', 'no-user-namespaces',
    ]);
    assert.match(plan.note, /bubblewrap\) is not installed/);
    assert.match(plan.note, /prlimit is missing/);
    assert.match(plan.note, /no memory cgroup controller mounted, so memory and processes were capped per process only/);
    assert.match(plan.note, /du is missing/);
    assert.match(plan.note, /without bwrap there is no seccomp filter, so the script could create user namespaces/);
    const host = { version: 1 as const, parents: { memory: '/sys/fs/cgroup/memory/x', pids: '/sys/fs/cgroup/pids/x' }, memsw: true };
    const fullProbe: IsolationProbe = {
      ...bare, root: true, bwrap: { ...bare.bwrap, path: '/usr/bin/bwrap', works: true, error: null }, setpriv: '/usr/bin/setpriv', prlimit: '/usr/bin/prlimit',
      cgroup: { ok: true, host }, seccomp: { works: true, error: null }, du: '/usr/bin/du',
    };
    const full = planIsolation(fullProbe, 'auto');
    assert.deepEqual(full.missing, []);
    assert.equal(full.mode, 'bwrap');
    assert.equal(full.seccomp, true);
    // An old bwrap (no --seccomp): only the user-namespace protection goes, with bwrap's reason.
    const oldBwrap = planIsolation({ ...fullProbe, seccomp: { works: false, error: 'this bwrap has no --seccomp option' } }, 'auto');
    assert.deepEqual(oldBwrap.missing, ['no-user-namespaces']);
    assert.match(oldBwrap.note, /this bwrap has no --seccomp option, so the script could create user namespaces/);
    // What a worker prints once at start says the same.
    assert.match(await describeSandboxProtections(bare), /^physvec sandbox: missing network, .*run-memory-limit, run-process-limit, disk-limit, no-user-namespaces — .*prlimit is missing/);
    assert.match(await describeSandboxProtections(fullProbe), /^physvec sandbox: all 10 protections in force/);
  });

  test("isolation 'none' runs the script and reports everything missing (and it really is)", async () => {
    const target = path.join(os.tmpdir(), `physvec-none-${randomUUID()}.txt`);
    try {
      const result = await runSandboxed(
        { language: 'python', entry: 'main.py', files: [hostileScript('write-outside.py')], args: [target], timeoutMs: 30_000 },
        { store, isolation: 'none' },
      );
      assert.equal(result.isolation.mode, 'none');
      assert.deepEqual(result.isolation.missing, [
        'network', 'readonly-root', 'private-tmp', 'pid-namespace', 'unprivileged-user', 'resource-limits',
        'run-memory-limit', 'run-process-limit', 'disk-limit', 'no-user-namespaces',
      ]);
      assert.deepEqual(result.isolation.inForce, []);
      assert.match(result.isolation.note, /switched off/);
      assert.equal(result.isolation.uid, null);
      assert.equal(existsSync(target), true, 'without isolation the write should have landed');
    } finally {
      rmSync(target, { force: true });
    }
  });

  test('PHYSVEC_SANDBOX_ISOLATION=none switches isolation off too', async () => {
    process.env.PHYSVEC_SANDBOX_ISOLATION = 'none';
    try {
      const result = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print(1)' }] }, { store });
      assert.equal(result.isolation.mode, 'none');
      assert.equal(result.exitCode, 0);
    } finally {
      delete process.env.PHYSVEC_SANDBOX_ISOLATION;
    }
  });

  test('without bwrap: the run happens, network is reported missing and is reachable', async () => {
    const probe = NO_BWRAP(await probeIsolation());
    await withLoopbackServer(async (port, connections) => {
      const result = await runSandboxed(
        { language: 'python', entry: 'main.py', files: [hostileScript('connect-loopback.py')], args: [String(port)], timeoutMs: 30_000 },
        { store, probe },
      );
      assert.equal(result.isolation.mode, 'processes-only');
      for (const p of ['network', 'readonly-root', 'private-tmp', 'pid-namespace', 'no-user-namespaces'] as const) assert.ok(result.isolation.missing.includes(p), p);
      assert.match(result.isolation.note, /bwrap disabled by the test/);
      // Dropping privileges needs the interpreter reachable by the run's uid; the report must match what happened.
      assert.equal(result.isolation.uid === null, result.isolation.missing.includes('unprivileged-user'));
      assert.match(result.stdoutTail, /CONNECTED/);
      assert.equal(connections(), 1);
    });
  });

  test('without bwrap the timeout still kills children and grandchildren', async () => {
    const probe = NO_BWRAP(await probeIsolation());
    const marker = `physvec-nobwrap-${randomUUID()}`;
    const watcher = waitFor(() => pidsWithMarker(marker).length >= 5, 20_000, 'the script and its descendants');
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('spawn-grandchildren.py')], args: [marker, 'attached'], timeoutMs: 5_000 },
      { store, probe },
    );
    await watcher;
    assert.equal(result.killedReason, 'timeout');
    assert.deepEqual(pidsWithMarker(marker), []);
  });

  test('without cgroups and du (simulated): the run happens, the run-wide limits are reported missing and nothing is measured', async () => {
    const real = await probeIsolation();
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print(open("/proc/self/cgroup").read())' }], timeoutMs: 30_000 },
      { store, probe: { ...real, cgroup: { ok: false, error: 'cgroups disabled by the test' }, du: null } },
    );
    assert.equal(result.exitCode, 0, result.stderrTail);
    for (const p of ['run-memory-limit', 'run-process-limit', 'disk-limit'] as const) {
      assert.ok(result.isolation.missing.includes(p), p);
      assert.ok(!result.isolation.inForce.includes(p), p);
    }
    assert.match(result.isolation.note, /cgroups disabled by the test, so memory and processes were capped per process only/);
    const { cpuMs, load1, ...measured } = result.usage;
    assert.deepEqual(measured, { memoryPeakBytes: null, diskPeakBytes: null, filesPeak: null });
    // The CPU time (the run's time limit) is still measured, from /proc.
    assert.equal(typeof cpuMs, 'number');
    assert.equal(typeof load1, 'number');
    assert.ok(!result.command.some((a) => a.includes('cgroup.procs')), 'no cgroup join in the command');
  });

  test('as a non-root worker (simulated): bwrap alone, reported as running as the worker user', async (t) => {
    const real = await probeIsolation();
    if (!real.bwrap.works) return t.skip(`bwrap does not work here: ${real.bwrap.error}`);
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('connect-loopback.py')], args: ['9'], timeoutMs: 30_000 },
      { store, probe: { ...real, root: false, setpriv: null } },
    );
    assert.equal(result.isolation.mode, 'bwrap');
    assert.deepEqual(result.isolation.missing, ['unprivileged-user']);
    assert.match(result.isolation.note, /not root/);
    assert.match(result.stdoutTail, /BLOCKED/);
  });
});
