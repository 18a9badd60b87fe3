// Issue 24.1: a sandbox run's time limit measures the script, not the host. Its own CPU time is
// limited (cgroup, else /proc); a run slowed down by a busy host past its limit in wall time is not
// killed; the wall clock is only a guard whose expiry is a retryable infrastructure fault; a script
// that sleeps on an idle host is stopped as stalled (issue 27.6: every kill says why, with numbers).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { after, describe, test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createSandboxActivities, HOST_BUSY_FAILURE } from '../../activities/sandbox/run-script.js';
import { killedDescription } from '../../activities/pipeline/run-job.js';
import { runSandboxed, SandboxWallGuardError } from '../../runners/sandbox/index.js';
import { probeIsolation } from '../../runners/sandbox/probe.js';
import { RunWatchdog, type LimitBreach } from '../../runners/sandbox/watchdog.js';
import { idleCoresBetween, parseCpuList } from '../../runners/sandbox/cpu-time.js';
import type { SandboxRequestInput } from '../../schemas/sandbox.js';
import { hostileScript, testStore, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();

/** Burns `argv[1]` s of its own CPU on core 0 (where the test's hogs run), then prints what it used. */
const BURN_ON_CORE_0 = `import os, sys, time
os.sched_setaffinity(0, {0})
need = float(sys.argv[1])
start = time.process_time()
while time.process_time() - start < need:
    pass
print("burned", round(time.process_time() - start, 2), flush=True)
`;

/**
 * Busy processes pinned to core 0, outside any run: the competition a loaded host gives a script.
 * Each in its own session (`detached`), as the run is (bwrap --new-session): with autogroup
 * scheduling the kernel shares a core between sessions, so hogs sharing one session would count once.
 */
function hogsOnCore0(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn('python3', ['-c', 'import os\nos.sched_setaffinity(0, {0})\nwhile True: pass'], { stdio: 'ignore', detached: true }));
}

function stop(procs: ChildProcess[]): void {
  for (const p of procs) if (p.pid !== undefined && p.exitCode === null) p.kill('SIGKILL');
}

describe('a run is limited by its own CPU time, not the wall clock', () => {
  const hogs: ChildProcess[] = [];
  after(() => stop(hogs));

  // First, before this file's own busy runs raise the load average.
  test('a script that sleeps while the host offers it CPU is stopped as stalled, and says so', async (t) => {
    const load = os.loadavg()[0]!;
    if (load > os.availableParallelism() - 0.5) return t.skip(`needs an idle core to offer (load ${load.toFixed(1)} on ${os.availableParallelism()} cores); the watchdog's rule is checked without one below`);
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'import time\ntime.sleep(600)\n' }], timeoutMs: 1_000, wallGuardMs: 60_000 },
      { store },
    );
    assert.equal(result.killedReason, 'idle');
    assert.match(killedDescription(result, undefined, 'unit test f') ?? '', /^unit test f was stopped as stalled: it left 1 s of CPU \(its limit\) unused on a host that offered it/);
  });

  test('a CPU-spinning script past a small CPU limit is killed and reported as over its CPU limit', async () => {
    const result = await runSandboxed({ language: 'python', entry: 'main.py', files: [hostileScript('burn-cpu.py')], timeoutMs: 2_000, label: 'spin' }, { store });
    assert.equal(result.killedReason, 'timeout');
    assert.equal(result.timedOut, true);
    const cpuMs = result.usage.cpuMs;
    assert.ok(cpuMs != null && cpuMs >= 2_000, `the run's CPU time is measured and past the limit: ${cpuMs}`);
    assert.ok(cpuMs < 2_000 + 2_500, `killed promptly after the limit (a 250 ms watch on ${os.availableParallelism()} cores): ${cpuMs} ms`);
    assert.equal(typeof result.usage.load1, 'number');
    const said = killedDescription(result, undefined, 'full script run');
    assert.match(said ?? '', /^full script run exceeded its 2 s CPU limit after \d+ s CPU, \d+ s wall at load \d+(\.\d)?$/);
  });

  test('without a cgroup the CPU time is summed over the process tree from /proc', async () => {
    const real = await probeIsolation();
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('burn-cpu.py')], timeoutMs: 2_000 },
      { store, probe: { ...real, cgroup: { ok: false, error: 'cgroups disabled by the test' } } },
    );
    assert.equal(result.killedReason, 'timeout');
    assert.ok((result.usage.cpuMs ?? 0) >= 2_000, `measured from /proc: ${result.usage.cpuMs}`);
  });

  test('a script slowed down by competing busy processes past its limit in wall time is not killed', async () => {
    // Five hogs on core 0 and the script pinned there too: it gets about a sixth of the core,
    // so 1.5 s of its CPU takes some 9 s of wall time against a 3 s limit.
    hogs.push(...hogsOnCore0(5));
    const result = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: BURN_ON_CORE_0 }], args: ['1.5'], timeoutMs: 3_000 }, { store });
    stop(hogs);
    assert.ok(result.durationMs > 3_000, `precondition: the host slowed the run past its limit in wall time (took ${Math.round(result.durationMs)} ms)`);
    assert.equal(result.killedReason, null, `killed (${result.killedReason}) after ${result.usage.cpuMs} ms CPU, ${Math.round(result.durationMs)} ms wall: ${result.stderrTail}`);
    assert.equal(result.ok, true, result.stderrTail);
    assert.match(result.stdoutTail, /burned 1\.\d/);
    assert.ok((result.usage.cpuMs ?? 0) < 3_000, `its own CPU stayed under the limit: ${result.usage.cpuMs}`);
  });

  test('the wall-clock guard ends a run as an infrastructure fault: no result, a retryable HostBusy failure', async () => {
    const sleeper = `import time\nprint("waiting", flush=True)\ntime.sleep(600)\n`;
    const req: SandboxRequestInput = { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: sleeper }], timeoutMs: 60_000, wallGuardMs: 2_000, label: 'blocked' };
    const thrown = await runSandboxed(req, { store }).then(() => null, (e: unknown) => e);
    assert.ok(thrown instanceof SandboxWallGuardError, `expected the wall guard, got ${String(thrown)}`);
    assert.match(thrown.message, /wall-clock guard after \d+ s wall with \d+ s of its 60 s CPU limit used, at load [\d.]+: the host did not give it the time, not the script's fault/);

    const env = new MockActivityEnvironment({});
    const beats: Record<string, unknown>[] = [];
    env.on('heartbeat', (d: Record<string, unknown>) => beats.push(d));
    const { runScript } = createSandboxActivities(store, { heartbeatMs: 100 });
    const failure = await env.run(runScript, req).then(() => null, (e: unknown) => e);
    assert.ok(failure instanceof ApplicationFailure, String(failure));
    assert.equal(failure.type, HOST_BUSY_FAILURE);
    assert.equal(failure.nonRetryable, false);
    assert.equal(beats.at(-1)?.ownFailures, 0, 'not counted as the run\'s own failure');
  });

  test('the watchdog: past the CPU limit is a timeout; CPU offered and left unused for as long as the limit is idle; a busy host is neither', () => {
    const breaches: LimitBreach[] = [];
    const meter = { usedMs: 0, unusedOfferedMs: 0, sample: () => undefined };
    const dog = new RunWatchdog({ cgroup: null, du: null, workDir: '/nonexistent', diskBytes: 1, maxFiles: 1, cpu: meter, cpuLimitMs: 1_000 }, (b) => breaches.push(b));
    meter.usedMs = 400;
    dog.checkCpu();
    assert.deepEqual(breaches, [], 'a run slowed by a busy host (nothing offered, little used) is left alone');
    meter.unusedOfferedMs = 1_000;
    dog.checkCpu();
    assert.deepEqual(breaches, ['idle']);
    meter.usedMs = 1_000;
    dog.checkCpu();
    assert.deepEqual(breaches, ['idle', 'timeout']);
  });

  test('idle CPU is counted only on the cores the run may use: a run pinned to a busy core is offered nothing', () => {
    assert.deepEqual(parseCpuList('0-2,5'), [0, 1, 2, 5]);
    const before = new Map([[0, { idle: 0, total: 0 }], [1, { idle: 0, total: 0 }]]);
    // Over the tick, core 0 was busy all along and core 1 idle all along.
    const after = new Map([[0, { idle: 0, total: 100 }], [1, { idle: 100, total: 100 }]]);
    assert.equal(idleCoresBetween(before, after, null), 1, 'a run allowed on every core is offered the idle one');
    assert.equal(idleCoresBetween(before, after, new Set([0])), 0, 'a run pinned to the busy core is offered nothing');
    assert.equal(idleCoresBetween(before, after, new Set([1])), 1);
  });
});
