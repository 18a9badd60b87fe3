// Issue 24.3/24.4: a worker raises its own CPU priority (its polls and heartbeats must not starve on
// a busy host), and every script runs at the priority the worker had before, the neighbours' — a
// cold chain from its start; on the warm path the chain and the arming of the run are physvec's own
// work at the worker's priority and the run drops back before its script. Measured in a child
// process (it raises itself).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { repoRoot } from '../../lib/paths.js';
import { repoModule, runChildModule } from '../helpers/child-module.js';
import { workerNiceSetting } from '../../lib/process-priority.js';
import { BadInputError } from '../../lib/errors.js';
import { useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();

test('PHYSVEC_WORKER_NICE: default -20, a value, off, and a bad value named with its fix', () => {
  assert.equal(workerNiceSetting(undefined), -20);
  assert.equal(workerNiceSetting(' -3 '), -3);
  assert.equal(workerNiceSetting('off'), null);
  assert.throws(() => workerNiceSetting('-30'), (e: unknown) => e instanceof BadInputError && /PHYSVEC_WORKER_NICE \/ --nice: expected a nice value from -20 to 19 or "off", got "-30"/.test(e.message));
});

test('a raised worker runs at its nice on every thread; its sandbox runs at the neighbours\'', { timeout: 120_000 }, (t) => {
  const code = `
const { raiseProcessPriority } = await import(${repoModule('lib/process-priority.ts')});
const { runSandboxed } = await import(${repoModule('runners/sandbox/index.ts')});
const { PythonZygote } = await import(${repoModule('runners/sandbox/zygote.ts')});
const { artifactStore } = await import(${repoModule('lib/artifacts/store.ts')});
const fs = await import('node:fs');
const niceOf = (pid, tid = pid) => Number(fs.readFileSync('/proc/' + pid + '/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
const outcome = raiseProcessPriority(-5);
const threads = fs.readdirSync('/proc/self/task').map((tid) => niceOf(process.pid, tid));
const run = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'import os\\nprint(os.getpriority(os.PRIO_PROCESS, 0))\\n' }], timeoutMs: 30_000 }, { store: artifactStore() });
const zygote = new PythonZygote(${JSON.stringify(path.join(repoRoot, '.venv', 'bin', 'python'))}, { PATH: '/usr/bin:/bin' }, []);
await zygote.ready();
const zygoteNice = niceOf(zygote.child.pid);
zygote.child.kill('SIGKILL');
console.log(JSON.stringify({ outcome, threads, script: run.stdoutTail.trim(), exitCode: run.exitCode, zygoteNice }));
process.exit(0);`;
  // PHYSVEC_NEIGHBOUR_NICE '' = not inherited from a raised parent
  const r = runChildModule<{ outcome: { raised: boolean; why?: string; from?: number }; threads: number[]; script: string; exitCode: number; zygoteNice: number }>(code, { PHYSVEC_SANDBOX_WARM: '0', PHYSVEC_NEIGHBOUR_NICE: '' }, 110_000);
  if (!r.outcome.raised) return t.skip(`this host does not let a process raise its priority: ${r.outcome.why}`);
  assert.deepEqual([...new Set(r.threads)], [-5], 'every thread of the raised process');
  assert.equal(r.exitCode, 0);
  assert.equal(Number(r.script), r.outcome.from, 'the sandbox script runs at the nice value the worker had before');
  // The warm python imports at the neighbours' priority, then runs its own per-run work (forks, arming) at the worker's; its runs drop back before the script (next test).
  assert.equal(r.zygoteNice, -5, 'the warm python, once it has imported, at the worker\'s');
});

test('a warm run: the script (a fork of the warm python, in a session of its own) at the neighbours\' nice and autogroup, its chain (the holder) at the worker\'s', { timeout: 240_000 }, (t) => {
  // The script reads its own nice and autogroup, and the nice of the holder (PID 2 in the run's pid namespace).
  const script = [
    'import os',
    'ag = open("/proc/self/autogroup").read().split()[-1] if os.path.exists("/proc/self/autogroup") else "none"',
    'holder = open("/proc/2/stat").read().split(") ")[1].split()[16]',
    'print(os.getpriority(os.PRIO_PROCESS, 0), ag, holder)',
  ].join('\n');
  const code = `
const { raiseProcessPriority } = await import(${repoModule('lib/process-priority.ts')});
const { runSandboxed, warmUpSandbox } = await import(${repoModule('runners/sandbox/index.ts')});
const { artifactStore } = await import(${repoModule('lib/artifacts/store.ts')});
const outcome = raiseProcessPriority(-5);
await warmUpSandbox();
const run = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: ${JSON.stringify(script)} }], timeoutMs: 60_000 }, { store: artifactStore() });
console.log(JSON.stringify({ outcome, out: run.stdoutTail.trim(), err: run.stderrTail, exitCode: run.exitCode, start: run.start?.path }));
process.exit(0);`;
  const r = runChildModule<{ outcome: { raised: boolean; why?: string; from?: number }; out: string; err: string; exitCode: number; start?: string }>(code, { PHYSVEC_SANDBOX_WARM: '1', PHYSVEC_NEIGHBOUR_NICE: '' }, 230_000);
  if (!r.outcome.raised) return t.skip(`this host does not let a process raise its priority: ${r.outcome.why}`);
  assert.equal(r.exitCode, 0, r.err);
  if (r.start !== 'warm') return t.skip(`the run did not start warm here (${r.start}): nothing of a warm chain to check`);
  const [scriptNice, autogroup, holderNice] = r.out.split(/\s+/);
  assert.equal(Number(scriptNice), r.outcome.from, 'the script at the nice value the worker had before');
  if (autogroup !== 'none') assert.equal(Number(autogroup), 0, 'the script\'s session autogroup is not the worker\'s raised one');
  assert.equal(Number(holderNice), -5, 'the warm chain keeps the worker\'s nice');
});

test('`physvec worker` raises itself before the CLI loads, and still reports the neighbours\' nice its scripts run at', { timeout: 120_000 }, async (t) => {
  const { spawn } = await import('node:child_process');
  const net = await import('node:net');
  const closed = net.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as import('node:net').AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  // No server at the address: the worker prints its priority line, then exits unreachable.
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'physvec.js'), 'worker', '--nice', '-3', '--queue', 'simulation'], {
    env: { ...process.env, TEMPORAL_ADDRESS: `127.0.0.1:${port}`, PHYSVEC_CONNECT_TIMEOUT_MS: '500', PHYSVEC_NEIGHBOUR_NICE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its nice, read from outside as soon as the process exists and again a moment later (tsx still loading the CLI).
  const niceOf = (pid: number) => {
    try {
      return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    } catch {
      return null;
    }
  };
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += String(c)));
  let earliestRaised: number | null = null;
  const started = Date.now();
  while (child.exitCode === null && !out.includes('\n')) {
    if (earliestRaised === null && niceOf(child.pid!) === -3) earliestRaised = Date.now() - started;
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => child.once('close', r));
  const first = out.split('\n')[0] ?? '';
  if (/not permitted/.test(first)) return t.skip(`this host does not let a process raise its priority: ${first}`);
  assert.match(first, /^worker runs at nice -3 \(was 0/, 'the CLI reports the raise from the neighbours\' nice, not "already runs at nice -3"');
  assert.match(first, /sandbox scripts at nice 0/);
  console.log(`# seen at nice -3 ${earliestRaised ?? '-'} ms after the spawn; its first line after ${Date.now() - started} ms`);
});

test('a detached child of a raised process (the dev server a raised drill or demo starts) gets its session\'s autogroup raised, not only the threads it inherited', { timeout: 60_000 }, (t) => {
  if (readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() !== '1') return t.skip('autogroup scheduling is off on this host: a session\'s nice does not matter');
  const code = `
const { raiseProcessPriority, autogroupNice } = await import(${repoModule('lib/process-priority.ts')});
const { spawn } = await import('node:child_process');
const own = raiseProcessPriority(-5);
const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
const before = autogroupNice(child.pid);
const outcome = raiseProcessPriority(-5, child.pid);
const after = autogroupNice(child.pid);
child.kill('SIGKILL');
console.log(JSON.stringify({ own, before, outcome, after }));
process.exit(0);`;
  const r = runChildModule<{ own: { raised: boolean; why?: string }; before: number; outcome: { raised: boolean }; after: number }>(code, { PHYSVEC_NEIGHBOUR_NICE: '' }, 50_000);
  if (!r.own.raised) return t.skip(`this host does not let a process raise its priority: ${r.own.why}`);
  assert.equal(r.before, 0, 'precondition: the detached child\'s new session starts at autogroup nice 0');
  assert.equal(r.after, -5, 'its autogroup raised too');
  assert.equal(r.outcome.raised, true);
});
