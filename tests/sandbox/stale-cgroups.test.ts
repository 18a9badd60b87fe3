// The stale-cgroup sweep at a worker's start, on real cgroups under a private parent (so it cannot
// touch anyone else's): a run cgroup whose maker is gone and which holds no task goes at once,
// whatever its age; a live worker's stay; one with a task in it (or in a cgroup below it) stays;
// one whose maker is unknown keeps the one-hour rule.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeIsolation } from '../../runners/sandbox/index.js';
import { removeStaleCgroups, RunCgroup, type CgroupHost } from '../../runners/sandbox/cgroup.js';
import { ownerMarkerDir } from '../../runners/sandbox/cgroup-owner.js';
import { useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const MiB = 1024 * 1024;
const limits = { memoryBytes: 64 * MiB, maxProcesses: 8 };

/** The marker of a worker process that has exited (its pid, its start time, this boot). */
function goneWorkerMark(): string {
  const child = spawnSync('/bin/sh', ['-c', 'cat /proc/$$/stat'], { encoding: 'utf8' });
  const stat = child.stdout;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()} ${stat.split(' ')[0]} ${fields[19]}`;
}

/** The marker of a live process that is not this one (the test runner that started us). */
function liveWorkerMark(): string {
  const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
  return `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()} ${process.ppid} ${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
}

/** A run cgroup as if another worker had made it: its marker then says `mark` (null: no marker). */
function madeBy(host: CgroupHost, runId: string, mark: string | null): RunCgroup {
  const cg = RunCgroup.create(host, runId, limits);
  const marker = path.join(ownerMarkerDir(), cg.name);
  if (mark === null) rmSync(marker, { force: true });
  else writeFileSync(marker, mark);
  return cg;
}

describe('stale run cgroups', () => {
  let host: CgroupHost | null = null;
  let skip: string | null = null;
  let parents: string[] = [];

  before(async () => {
    const probe = await probeIsolation();
    if (!probe.cgroup.ok) {
      skip = `no run cgroups here: ${probe.cgroup.error}`;
      return;
    }
    const real = probe.cgroup.host;
    const own = Object.fromEntries(Object.entries(real.parents).map(([c, p]) => [c, path.join(p, `physvec-sweeptest-${process.pid}`)])) as CgroupHost['parents'];
    parents = [...new Set(Object.values(own))];
    for (const p of parents) mkdirSync(p);
    // Only the test's own parents: the real cpuacct parent holds other workers' run cgroups.
    host = { version: real.version, memsw: real.memsw, parents: own };
  });
  after(() => {
    for (const p of parents) if (existsSync(p)) rmdirSync(p);
  });

  test('a run cgroup records its maker and drops the record when removed', async (t) => {
    if (!host) return t.skip(skip!);
    const cg = RunCgroup.create(host, `marked-${process.pid}`, limits);
    const marker = path.join(ownerMarkerDir(), cg.name);
    assert.match(readFileSync(marker, 'utf8'), new RegExp(` ${process.pid} \\d+$`));
    await cg.remove();
    assert.equal(existsSync(marker), false);
  });

  test('an empty cgroup left by a worker that is gone is removed at once, with the cgroups below it; a live worker\'s is kept', async (t) => {
    if (!host) return t.skip(skip!);
    const gone = madeBy(host, `gone-${process.pid}`, goneWorkerMark());
    for (const d of gone.dirs) mkdirSync(path.join(d, 'nested'));
    const live = madeBy(host, `live-${process.pid}`, liveWorkerMark());
    try {
      // Both are seconds old: only the maker decides.
      const removed = removeStaleCgroups(host, new Set());
      assert.deepEqual(removed.sort(), [...gone.dirs].sort());
      for (const d of gone.dirs) assert.equal(existsSync(d), false);
      assert.equal(existsSync(path.join(ownerMarkerDir(), gone.name)), false, 'the gone worker\'s marker is dropped');
      // A live worker's cgroup stays, however old.
      assert.deepEqual(removeStaleCgroups(host, new Set(), Date.now() + 48 * 3600_000), []);
      for (const d of live.dirs) assert.equal(existsSync(d), true);
    } finally {
      await live.remove();
    }
  });

  test('a gone worker\'s cgroup that still holds a task (in a cgroup below it) is kept until the task ends', async (t) => {
    if (!host) return t.skip(skip!);
    const cg = madeBy(host, `busy-${process.pid}`, goneWorkerMark());
    const sleeper = spawn('/bin/sleep', ['60'], { stdio: 'ignore' });
    try {
      for (const d of cg.dirs) {
        mkdirSync(path.join(d, 'nested'));
        writeFileSync(path.join(d, 'nested', 'cgroup.procs'), String(sleeper.pid));
      }
      assert.deepEqual(removeStaleCgroups(host, new Set(), Date.now() + 2 * 3600_000), []);
      for (const d of cg.dirs) assert.equal(existsSync(d), true);
    } finally {
      const exited = new Promise((r) => sleeper.once('exit', r));
      sleeper.kill('SIGKILL');
      await exited;
    }
    // Its task gone, the next sweep removes it (the kernel takes a moment to empty cgroup.procs).
    let removed: string[] = [];
    for (let i = 0; i < 50 && removed.length === 0; i++) {
      removed = removeStaleCgroups(host, new Set());
      if (removed.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(removed.sort(), [...cg.dirs].sort());
  });

  test('a cgroup whose maker is unknown keeps the age rule; this process\'s are decided by its live runs', async (t) => {
    if (!host) return t.skip(skip!);
    const unknown = madeBy(host, `unknown-${process.pid}`, null);
    const left = RunCgroup.create(host, `left-${process.pid}`, limits);
    const running = RunCgroup.create(host, `running-${process.pid}`, limits);
    const active = new Set([`running-${process.pid}`]);
    try {
      // This process's cgroup outside its live runs is over (its removal failed earlier); the unknown one is young.
      assert.deepEqual(removeStaleCgroups(host, active).sort(), [...left.dirs].sort());
      for (const d of unknown.dirs) assert.equal(existsSync(d), true);
      const removed = removeStaleCgroups(host, active, Date.now() + 2 * 3600_000);
      assert.deepEqual(removed.sort(), [...unknown.dirs].sort());
      for (const d of running.dirs) assert.equal(existsSync(d), true);
    } finally {
      await running.remove();
    }
  });
});
