// The chain launcher (runners/sandbox/launcher.ts): a small process that forks the sandbox chains so
// the worker's own fork (node's spawn copies the worker's page tables) is off every run's path. A
// chain it starts must behave as node's child would: its pipes, end-of-file on stdin, its exit code
// or signal, 'close' once its pipes are closed, the leader of a session of its own; a command that
// cannot be started is refused, and when the launcher dies a chain in flight is reported lost (an
// infrastructure error), never as an exit of the script, and later chains are spawned by node.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { test } from 'node:test';
import { ChainLauncher, ChainLostError, chainLauncher } from '../../runners/sandbox/launcher.js';
import { venvPython } from '../../lib/paths.js';

const text = async (r: Readable | null) => {
  let out = '';
  for await (const c of r!) out += String(c);
  return out;
};

test('a chain started by the launcher has its pipes, its own session and its exit status, as a node child would', async () => {
  const launcher = new ChainLauncher(venvPython);
  // fd 3: a pipe the chain reads (bwrap's seccomp filter); fd 4: one it writes (the holder's readiness).
  const script = 'cat; echo "err $1" >&2; head -c 5 <&3 >&4; ps -o sid= -p $$ | tr -d " "; exit 7';
  const child = await launcher.spawn(['sh', '-c', script, 'sh', 'x'], { PATH: '/usr/bin:/bin' }, '/tmp', ['r', 'w', 'w', 'r', 'w']);
  assert.ok(child.pid && child.pid > 1);
  const exit = once(child, 'exit');
  const closed = once(child, 'close');
  const [out, err, four] = [text(child.stdout), text(child.stderr), text(child.stdio[4] as Readable)];
  child.stdin!.end('to stdin\n');
  (child.stdio[3] as NodeJS.WritableStream).end('12345');
  assert.deepEqual(await exit, [7, null]);
  await closed;
  const lines = (await out).split('\n');
  assert.equal(lines[0], 'to stdin');
  assert.equal(Number(lines[1]), child.pid, 'the chain leads a session of its own');
  assert.equal(await err, 'err x\n');
  assert.equal(await four, '12345');
  // A chain ended by a signal reports the signal's name and no code.
  const killed = await launcher.spawn(['sleep', '30'], { PATH: '/usr/bin:/bin' }, '/', ['null', 'w', 'w']);
  const ended = once(killed, 'exit');
  process.kill(killed.pid!, 'SIGTERM');
  assert.deepEqual(await ended, [null, 'SIGTERM']);
});

test('a command that cannot be started is refused, and the launcher serves the next one', async () => {
  const launcher = new ChainLauncher(venvPython);
  await assert.rejects(launcher.spawn(['/nonexistent/bwrap'], { PATH: '/usr/bin:/bin' }, '/', ['null', 'w', 'w']), /FileNotFoundError|No such file/);
  const child = await launcher.spawn(['true'], { PATH: '/usr/bin:/bin' }, '/', ['null', 'w', 'w']);
  assert.deepEqual(await once(child, 'exit'), [0, null]);
  assert.equal(launcher.unavailable, null);
});

test('when the launcher dies, a chain in flight is reported lost, not ended; the next chain starts a new launcher, up to a limit', async () => {
  const launcher = new ChainLauncher(venvPython);
  const child = await launcher.spawn(['sleep', '30'], { PATH: '/usr/bin:/bin' }, '/', ['null', 'w', 'w']);
  const lost = once(child, 'error');
  let exited = false;
  child.once('exit', () => (exited = true));
  const first = launcher.pid!;
  process.kill(first, 'SIGKILL');
  const [err] = (await lost) as [Error];
  assert.ok(err instanceof ChainLostError, String(err));
  assert.match(err.message, /chain launcher exited.*could not be known/);
  assert.equal(exited, false);
  // A real chain's bwrap dies with the launcher (--die-with-parent); this one is ended by the test.
  process.kill(-child.pid!, 'SIGKILL');
  // Started anew for the next chain (three times); after the fourth death chains are left to node.
  const pids = [first];
  for (let i = 0; i < 3; i++) {
    const next = await launcher.spawn(['true'], { PATH: '/usr/bin:/bin' }, '/', ['null', 'w', 'w']);
    assert.deepEqual(await once(next, 'exit'), [0, null]);
    assert.ok(!pids.includes(launcher.pid!), `restart ${i + 1} is a new launcher`);
    pids.push(launcher.pid!);
    // The launcher does not keep the worker alive (it is unref'd): a timer does while it dies.
    const keepAlive = setInterval(() => undefined, 1_000);
    const gone = once(launcher['proc']!, 'exit');
    process.kill(launcher.pid!, 'SIGKILL');
    await gone;
    clearInterval(keepAlive);
  }
  assert.match(launcher.unavailable ?? '', /chain launcher exited/);
  await assert.rejects(launcher.spawn(['true'], {}, '/', ['null']), /chain launcher exited/);
});

test('the worker\'s launcher is on by default and small', async () => {
  const launcher = chainLauncher();
  assert.ok(launcher, 'PHYSVEC_SANDBOX_LAUNCHER is not 0 here');
  const child = await launcher.spawn(['true'], { PATH: '/usr/bin:/bin' }, '/', ['null', 'w', 'w']);
  await once(child, 'exit');
  const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${launcher.pid}/status`, 'utf8'))?.[1]);
  console.log(`# the launcher's resident memory: ${(rssKb / 1024).toFixed(1)} MiB`);
  assert.ok(rssKb < 40 * 1024, `the launcher holds ${rssKb} KiB: its fork would copy that many page tables`);
});

// Found by the sandbox suite: with many chains starting at once the launcher holds a hundred pipe
// ends, and moving a child's fds to fixed numbers overwrote one of them (a chain's stdout became the
// launcher's error pipe, and the launcher waited for ever on a chain it took for failed).
test('sixty chains started at once each get their own pipes and status', { timeout: 60_000 }, async () => {
  const launcher = new ChainLauncher(venvPython);
  const children = await Promise.all(Array.from({ length: 60 }, (_, i) => launcher.spawn(['sh', '-c', `cat >/dev/null; echo out ${i}; echo err ${i} >&2; exit ${i % 7}`], { PATH: '/usr/bin:/bin' }, '/', ['r', 'w', 'w', null, 'w'])));
  const results = await Promise.all(children.map(async (c, i) => {
    const exit = once(c, 'exit');
    const [out, err] = [text(c.stdout), text(c.stderr)];
    c.stdin!.end();
    return { i, exit: await exit, out: await out, err: await err };
  }));
  for (const r of results) assert.deepEqual(r, { i: r.i, exit: [r.i % 7, null], out: `out ${r.i}\n`, err: `err ${r.i}\n` });
});

// Found as a flaky hang: the reply that started a chain and the one that ended it came in one read
// (a chain that ends at once) and the end was emitted before anyone could listen.
test('a chain that ends at once still reports its end to a listener attached after the start was awaited', { timeout: 60_000 }, async () => {
  const launcher = new ChainLauncher(venvPython);
  // As spawnChain does: listeners attached right after the start was awaited (as with node's own children).
  for (let i = 0; i < 100; i++) {
    const child = await launcher.spawn(['true'], { PATH: '/usr/bin:/bin' }, '/', ['null', 'w', 'w']);
    const [exit] = await Promise.all([once(child, 'exit'), once(child, 'close')]);
    assert.deepEqual(exit, [0, null]);
  }
});
