// Limits that hold for a run as a whole (its cgroup, its disk, no user namespaces, its uid lock)
// and cleanup that never loses the result. Each hostile run must be contained, the result must
// come back, and afterwards the host's memory and disk are back where they were and no work dir
// or cgroup of the run is left. The limits are small so the tests stay fast and never take more
// than ~2.5 GiB of the shared machine; each prints the peaks it saw.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statfsSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { repoRoot } from '../../lib/paths.js';
import type { SandboxResult } from '../../schemas/sandbox.js';
import { probeIsolation, runSandboxed, sandboxRoot, type IsolationProbe } from '../../runners/sandbox/index.js';
import { allocateSandboxUid } from '../../runners/sandbox/uid.js';
import { removeStaleWorkDirs, removeWorkDir, retireWorkDir, workDirRemovals } from '../../runners/sandbox/workdir.js';
import { hostileScript, testStore, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();
mkdirSync(sandboxRoot(), { recursive: true });
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

interface HostLevels {
  availableBytes: number;
  shmemBytes: number;
  diskFreeBytes: number;
}

/** Entries of the sandbox root (other test files may have left their own there on purpose). */
function workDirs(): Set<string> {
  return new Set(readdirSync(sandboxRoot()).filter((n) => n !== '.trash'));
}

function newWorkDirs(before: Set<string>): string[] {
  return [...workDirs()].filter((n) => !before.has(n));
}

function hostLevels(): HostLevels & { dirs: Set<string> } {
  const info = readFileSync('/proc/meminfo', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(info)?.[1] ?? 0) * 1024;
  const fs = statfsSync(sandboxRoot());
  return { availableBytes: kb('MemAvailable'), shmemBytes: kb('Shmem'), diskFreeBytes: fs.bavail * fs.bsize, dirs: workDirs() };
}

const gib = (n: number | null) => (n === null ? 'n/a' : `${(n / GiB).toFixed(2)} GiB`);

/**
 * After a run: its work dir and cgroups are gone, and the host's levels come back (within
 * `tolerance`, as the machine is shared with other work whose memory comes and goes; a leak here
 * would be the size of the run's cap, and shared memory — Shmem — is the exact signal for it).
 */
async function assertHostRecovered(what: string, result: SandboxResult, levelsBefore: HostLevels & { dirs: Set<string> }, tolerance: Partial<HostLevels>): Promise<void> {
  assert.equal(existsSync(path.join(sandboxRoot(), result.runId)), false, 'the work dir was removed');
  assert.deepEqual(newWorkDirs(levelsBefore.dirs), [], 'no work dir is left in the sandbox root');
  const probe = await probeIsolation();
  if (probe.cgroup.ok) {
    for (const parent of Object.values(probe.cgroup.host.parents)) assert.equal(existsSync(path.join(parent, `physvec-${result.runId}`)), false, `cgroup left in ${parent}`);
  }
  await workDirRemovals(); // the work dir is removed in the background once the run is over
  let now = hostLevels();
  const recovered = () =>
    (Object.keys(tolerance) as (keyof HostLevels)[]).every((k) =>
      k === 'shmemBytes' ? now[k] <= levelsBefore[k] + tolerance[k]! : now[k] >= levelsBefore[k] - tolerance[k]!,
    );
  for (let i = 0; i < 30 && !recovered(); i++) {
    await new Promise((r) => setTimeout(r, 200));
    now = hostLevels();
  }
  console.log(
    `# ${what}: killed ${result.killedReason ?? 'no'}, memory peak ${gib(result.usage.memoryPeakBytes)}, disk peak ${gib(result.usage.diskPeakBytes)}; ` +
      `host available memory ${gib(levelsBefore.availableBytes)} -> ${gib(now.availableBytes)}, shmem ${gib(levelsBefore.shmemBytes)} -> ${gib(now.shmemBytes)}, ` +
      `free disk ${gib(levelsBefore.diskFreeBytes)} -> ${gib(now.diskFreeBytes)}`,
  );
  assert.ok(recovered(), `${what}: the host did not get its memory/disk back (before ${JSON.stringify(levelsBefore)}, after ${JSON.stringify(now)})`);
}

function assertHealthy(): void {
  assert.equal(execFileSync('/bin/echo', ['alive'], { encoding: 'utf8' }).trim(), 'alive');
}

describe('run-wide sandbox limits', () => {
  let probe: IsolationProbe;
  const needs = (t: TestContext, ok: boolean, why: string) => {
    if (!ok) t.skip(why);
    return ok;
  };
  before(async () => {
    probe = await probeIsolation();
    console.log(
      `# run-wide protections on this host: cgroup ${probe.cgroup.ok ? `v${probe.cgroup.host.version} (${Object.values(probe.cgroup.host.parents).join(', ')})` : `no (${probe.cgroup.error})`}, ` +
        `seccomp ${probe.seccomp.works ? 'yes' : `no (${probe.seccomp.error})`}, du ${probe.du ?? 'no'}`,
    );
  });

  test('4 GiB of shared anonymous memory is stopped at the run cap of 1 GiB: killed: memory, with the peak', async (t) => {
    if (!needs(t, probe.cgroup.ok, 'needs a memory cgroup')) return;
    const levels = hostLevels();
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('shared-memory-hog.py')], args: [String(4 * GiB)], memoryMb: 1024, timeoutMs: 120_000 },
      { store },
    );
    assert.equal(result.killedReason, 'memory', `stdout: ${result.stdoutTail} stderr: ${result.stderrTail}`);
    assert.equal(result.ok, false);
    assert.doesNotMatch(result.stdoutTail, /^done/m);
    assert.ok(result.isolation.inForce.includes('run-memory-limit'));
    const peak = result.usage.memoryPeakBytes!;
    assert.ok(peak > 768 * MiB && peak <= 1024 * MiB, `memory peak ${peak}`);
    await assertHostRecovered('4 GiB shared memory, 1 GiB cap', result, levels, { shmemBytes: 256 * MiB });
    assertHealthy();
  });

  test('3 processes x 2 GiB under a 2.5 GiB run cap: each is under its own cap, together they are killed', async (t) => {
    if (!needs(t, probe.cgroup.ok, 'needs a memory cgroup')) return;
    const levels = hostLevels();
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('fork-memory-hogs.py')], args: ['3', '2048'], memoryMb: 2560, timeoutMs: 120_000 },
      { store },
    );
    assert.equal(result.killedReason, 'memory', `stdout: ${result.stdoutTail} stderr: ${result.stderrTail}`);
    assert.doesNotMatch(result.stdoutTail, /all children done/);
    assert.ok((result.stdoutTail.match(/allocated/g) ?? []).length < 3, 'all three processes got their 2 GiB');
    const peak = result.usage.memoryPeakBytes!;
    assert.ok(peak > 2048 * MiB && peak <= 2560 * MiB, `memory peak ${peak}`);
    await assertHostRecovered('3 x 2 GiB processes, 2.5 GiB cap', result, levels, { availableBytes: 1536 * MiB });
    assertHealthy();
  });

  test('5 x 1 GiB files under a 2 GiB disk cap: killed: disk, with the peak; the private /tmp is capped too', async (t) => {
    if (!needs(t, probe.du !== null, 'needs du for the disk watchdog')) return;
    const levels = hostLevels();
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('fill-disk.py')], args: ['work', '5', '1024'], diskMb: 2048, timeoutMs: 180_000 },
      { store },
    );
    assert.equal(result.killedReason, 'disk', `stdout: ${result.stdoutTail} stderr: ${result.stderrTail}`);
    assert.doesNotMatch(result.stdoutTail, /all files written|wrote file 3/);
    const peak = result.usage.diskPeakBytes!;
    assert.ok(peak > 2048 * MiB && peak < 2048 * MiB + 768 * MiB, `disk peak ${peak}`);
    await assertHostRecovered('5 x 1 GiB files, 2 GiB disk cap', result, levels, { diskFreeBytes: 512 * MiB });

    if (!needs(t, probe.bwrap.works && probe.bwrap.supportsSize, 'needs bwrap with --size for a capped private /tmp')) return;
    const tmpLevels = hostLevels();
    const inTmp = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('fill-disk.py')], args: ['tmp', '4', '512'], memoryMb: 1024, timeoutMs: 120_000 },
      { store },
    );
    // /tmp is a tmpfs of half the memory cap (charged to the run's memory cgroup as well).
    assert.match(inTmp.stdoutTail, /stopped ENOSPC after (\d+) MiB/);
    assert.ok(Number(/after (\d+) MiB/.exec(inTmp.stdoutTail)![1]) <= 512, inTmp.stdoutTail);
    await assertHostRecovered('2 GiB into the private /tmp, 1 GiB memory cap', inTmp, tmpLevels, { shmemBytes: 256 * MiB });
    assertHealthy();
  });

  test('60 nested 250-character directories with a 1 GiB file at the bottom: the result comes back and nothing stays', async () => {
    const levels = hostLevels();
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('deep-tree.py')], args: ['1024'], timeoutMs: 180_000 },
      { store },
    );
    assert.equal(result.exitCode, 0, result.stderrTail);
    assert.equal(result.killedReason, null);
    const depth = Number(/path length (\d+)/.exec(result.stdoutTail)?.[1]);
    assert.ok(depth > 4096 * 3, `the tree is far past PATH_MAX (${depth})`);
    if (probe.du) assert.ok(result.usage.diskPeakBytes! >= GiB, `disk peak ${result.usage.diskPeakBytes}`);
    await assertHostRecovered('60 x 250-char dirs + 1 GiB', result, levels, { diskFreeBytes: 512 * MiB });
  });

  test('no user namespaces: unshare(CLONE_NEWUSER) fails, clone3 says ENOSYS, ordinary subprocesses still work', async (t) => {
    if (!needs(t, probe.bwrap.works && probe.seccomp.works, `needs bwrap with a seccomp filter (${probe.seccomp.error})`)) return;
    const run = (p?: IsolationProbe) =>
      runSandboxed({ language: 'python', entry: 'main.py', files: [hostileScript('make-user-namespace.py')], timeoutMs: 60_000 }, { store, ...(p ? { probe: p } : {}) });
    const result = await run();
    assert.equal(result.exitCode, 0, result.stderrTail);
    assert.match(result.stdoutTail, /^unshare\(CLONE_NEWUSER\|CLONE_NEWNS\) FAILED EPERM$/m);
    assert.match(result.stdoutTail, /^unshare\(CLONE_NEWUSER\) FAILED EPERM$/m);
    assert.match(result.stdoutTail, /^clone3 errno ENOSYS$/m);
    assert.match(result.stdoutTail, /^unshare tool FAILED$/m);
    assert.match(result.stdoutTail, /^subprocesses still work$/m);
    assert.ok(result.isolation.inForce.includes('no-user-namespaces'));
    // The same script without the filter gets its namespace, and the report says the protection is missing.
    const unfiltered = await run({ ...probe, seccomp: { works: false, error: 'seccomp switched off by the test' } });
    assert.match(unfiltered.stdoutTail, /^unshare\(CLONE_NEWUSER\) OK$/m);
    assert.ok(unfiltered.isolation.missing.includes('no-user-namespaces'));
    assert.match(unfiltered.isolation.note, /seccomp switched off by the test, so the script could create user namespaces/);
  });
});

describe('uids across workers on one host', () => {
  const saved = { base: process.env.PHYSVEC_SANDBOX_UID_BASE, span: process.env.PHYSVEC_SANDBOX_UID_SPAN };
  after(() => {
    for (const [k, v] of [['PHYSVEC_SANDBOX_UID_BASE', saved.base], ['PHYSVEC_SANDBOX_UID_SPAN', saved.span]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  test('a locked uid is not handed out again until it is released', async () => {
    process.env.PHYSVEC_SANDBOX_UID_BASE = '431000';
    process.env.PHYSVEC_SANDBOX_UID_SPAN = '1';
    const first = await allocateSandboxUid();
    assert.equal(first.uid, 431000);
    await assert.rejects(allocateSandboxUid(), /could not find a free sandbox uid/);
    await first.release();
    const again = await allocateSandboxUid();
    assert.equal(again.uid, 431000);
    await again.release();
  });

  test('two workers start 20 runs each at once from 48 uids: no uid shared, no run killed by the other', async (t) => {
    const probe = await probeIsolation();
    if (!probe.root || !probe.setpriv) return t.skip('needs root + setpriv for per-run uids');
    const env = { ...process.env, PHYSVEC_SANDBOX_UID_BASE: '432000', PHYSVEC_SANDBOX_UID_SPAN: '48' };
    const worker = (name: string) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests/fixtures/hostile/concurrent-worker.ts'), name, '20'], {
        cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const ready = new Promise<void>((resolve) => {
        const check = () => (out.includes('ready\n') ? resolve() : setTimeout(check, 50));
        check();
      });
      const done = new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`worker ${name} exited ${code}: ${out.slice(-2000)}`))));
      });
      return { child, ready, done };
    };
    const levels = hostLevels();
    const a = worker('a');
    const b = worker('b');
    await Promise.all([a.ready, b.ready]);
    a.child.stdin.end('go\n');
    b.child.stdin.end('go\n');
    const outputs = await Promise.all([a.done, b.done]);
    const runs = outputs.flatMap((o) => JSON.parse(o.trim().split('\n').at(-1)!) as { runId: string; uid: number; exitCode: number; killedReason: string | null; stdout: string; stderr: string }[]);
    assert.equal(runs.length, 40);
    for (const r of runs) {
      assert.equal(r.exitCode, 0, `${r.runId}: ${r.stdout} ${r.stderr}`);
      assert.equal(r.killedReason, null);
      assert.match(r.stdout, new RegExp(`^uid ${r.uid}$`, 'm'));
      assert.match(r.stdout, /^child rc 0$/m, `${r.runId}'s child was killed`);
    }
    const uids = new Set(runs.map((r) => r.uid));
    assert.equal(uids.size, 40, `uids shared: ${runs.map((r) => r.uid).sort().join(',')}`);
    for (const u of uids) assert.ok(u >= 432000 && u < 432048);
    assert.deepEqual(newWorkDirs(levels.dirs), [], 'work dirs left behind');
    const now = hostLevels();
    console.log(`# two workers x 20 runs: ${uids.size} distinct uids of 48; host available memory ${gib(levels.availableBytes)} -> ${gib(now.availableBytes)}, free disk ${gib(levels.diskFreeBytes)} -> ${gib(now.diskFreeBytes)}`);
  });
});

describe('cleanup never loses a result', () => {
  test('the stale-dir sweep removes an abandoned tree deeper than PATH_MAX', async () => {
    const dir = path.join(sandboxRoot(), `abandoned-deep-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    // Built by a child process that walks down with chdir, as a script would.
    execFileSync('python3', ['-c', 'import os\nfor i in range(40):\n    os.mkdir("x"*250); os.chdir("x"*250)\nopen("f","w").write("x")'], { cwd: dir });
    const old = new Date(Date.now() - 72 * 3600_000);
    utimesSync(dir, old, old);
    const removed = await removeStaleWorkDirs();
    assert.ok(removed.includes(dir), `removed: ${removed.join(', ')}`);
    assert.equal(existsSync(dir), false);
  });

  test('a finished run\'s work dir leaves its path at once and is removed in the background', async () => {
    const dir = path.join(sandboxRoot(), `retired-${process.pid}`);
    mkdirSync(path.join(dir, 'out'), { recursive: true });
    for (let i = 0; i < 20; i++) writeFileSync(path.join(dir, 'out', `f${i}.txt`), 'x'.repeat(4096));
    await retireWorkDir(dir);
    assert.equal(existsSync(dir), false, 'no longer in the run\'s path');
    await workDirRemovals();
    assert.equal(existsSync(path.join(sandboxRoot(), '.trash', path.basename(dir))), false, 'removed from .trash');
    assert.equal(statSync(path.join(sandboxRoot(), '.trash')).mode & 0o777, 0o700, '.trash is root\'s only');
  });

  test('a work dir that cannot be removed is logged, kept in .trash, and removed by the next sweep', async (t) => {
    const dir = path.join(sandboxRoot(), `stuck-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const pinned = path.join(dir, 'pinned.txt');
    writeFileSync(pinned, 'x');
    try {
      execFileSync('chattr', ['+i', pinned], { stdio: 'ignore' });
    } catch {
      return t.skip('chattr +i is not possible here (needs root on ext4/xfs), so removal cannot be made to fail');
    }
    const warnings: string[] = [];
    const warn = t.mock.method(console, 'warn', (msg: string) => warnings.push(msg));
    let kept: string | undefined;
    try {
      assert.equal(await removeWorkDir(dir), false);
      assert.match(warnings.join('\n'), /could not remove work dir .*stuck-.*kept at .*\.trash/);
      kept = readdirSync(path.join(sandboxRoot(), '.trash')).map((n) => path.join(sandboxRoot(), '.trash', n)).find((p) => p.includes(`stuck-${process.pid}`));
      assert.ok(kept && existsSync(kept), 'kept in .trash');
      // Still stuck: the sweep logs and keeps it.
      assert.deepEqual((await removeStaleWorkDirs()).filter((p) => p === kept), []);
    } finally {
      execFileSync('chattr', ['-i', kept ? path.join(kept, 'pinned.txt') : pinned]);
      warn.mock.restore();
    }
    const removed = await removeStaleWorkDirs();
    assert.ok(removed.includes(kept!), `removed: ${removed.join(', ')}`);
    assert.equal(existsSync(kept!), false);
  });
});
