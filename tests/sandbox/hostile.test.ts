// Hostile scripts run in the real sandbox on this host; each must be contained and the test
// process must stay healthy afterwards.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { qmpBenchRoot, repoRoot } from '../../lib/paths.js';
import { pidsOfUid } from '../../runners/sandbox/process-tree.js';
import { probeIsolation, runSandboxed, SandboxCancelledError } from '../../runners/sandbox/index.js';
import { hostileScript, pidsWithMarker, testStore, useTestStateDir, waitFor } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();

function assertHealthy(): void {
  // The test process can still fork and exec: no process cap or fork bomb leaked out.
  assert.equal(execFileSync('/bin/echo', ['alive'], { encoding: 'utf8' }).trim(), 'alive');
}

describe('sandbox against hostile scripts', () => {
  let fullIsolation = false;
  before(async () => {
    const probe = await probeIsolation();
    fullIsolation = probe.bwrap.works && probe.root && probe.setpriv !== null && probe.prlimit !== null;
    console.log(`# isolation on this host: bwrap ${probe.bwrap.works ? probe.bwrap.version : `no (${probe.bwrap.error})`}, root ${probe.root}, setpriv ${!!probe.setpriv}, prlimit ${!!probe.prlimit}`);
  });

  test('an infinite loop with detached grandchildren is killed at the timeout, grandchildren too', async () => {
    const marker = `physvec-marker-${randomUUID()}`;
    let seen: number[] = [];
    const watcher = waitFor(() => {
      const pids = pidsWithMarker(marker);
      // prlimit/bwrap/setpriv/python wrappers plus 2 children and 2 grandchildren.
      if (pids.length >= 5) seen = pids;
      return pids.length >= 5;
    }, 20_000, 'the script and its grandchildren to start');
    const started = Date.now();
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('spawn-grandchildren.py')], args: [marker], timeoutMs: 6_000 },
      { store },
    );
    await watcher;
    assert.equal(result.timedOut, true);
    assert.equal(result.killedReason, 'timeout');
    assert.equal(result.ok, false);
    assert.match(result.stdoutTail, /started/);
    // The limit is the run's own CPU time: prompt means soon after 6 s of it, however busy the host is.
    assert.ok((result.usage.cpuMs ?? Infinity) < 6_000 + 3_000, `the kill is prompt: ${result.usage.cpuMs} ms CPU, ${Date.now() - started} ms wall`);
    assert.ok(seen.length >= 5, `saw ${seen.length} marked processes while running`);
    const survivors = pidsWithMarker(marker);
    assert.deepEqual(survivors, [], `processes survived the timeout: ${survivors.join(', ')}`);
    if (result.isolation.uid !== null) assert.deepEqual(pidsOfUid(result.isolation.uid), []);
    assertHealthy();
  });

  test('a 4 GiB allocation is refused under the default memory cap', async () => {
    const result = await runSandboxed({ language: 'python', entry: 'main.py', files: [hostileScript('memory-hog.py')], timeoutMs: 60_000 }, { store });
    assert.equal(result.limits.memoryMb, 3072);
    assert.notEqual(result.exitCode, 0, `the allocation succeeded: ${result.stdoutTail}`);
    assert.doesNotMatch(result.stdoutTail, /allocated/);
    assert.match(result.stderrTail, /MemoryError|Unable to allocate/);
    assertHealthy();
  });

  test('a fork bomb is contained by the process cap and leaves nothing behind', async (t) => {
    if (!fullIsolation) return t.skip('needs root + setpriv + prlimit for a per-run process cap');
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('fork-bomb.py')], timeoutMs: 4_000, maxProcesses: 24 },
      { store },
    );
    assert.equal(result.killedReason, 'timeout');
    assert.ok(result.isolation.uid !== null);
    assert.deepEqual(pidsOfUid(result.isolation.uid!), [], 'fork-bomb processes survived');
    assertHealthy();
  });

  test('no network: a TCP server on the host loopback is unreachable', async (t) => {
    if (!fullIsolation) return t.skip('needs bwrap for a network namespace');
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const result = await runSandboxed(
        { language: 'python', entry: 'main.py', files: [hostileScript('connect-loopback.py')], args: [String(port)], timeoutMs: 30_000 },
        { store },
      );
      assert.match(result.stdoutTail, /BLOCKED/);
      assert.doesNotMatch(result.stdoutTail, /CONNECTED/);
      assert.equal(connections, 0);
      assert.ok(!result.isolation.missing.includes('network'));
    } finally {
      server.close();
    }
  });

  test('API keys held by the worker never reach the script', async () => {
    const before = { o: process.env.OPENAI_API_KEY, g: process.env.GEMINI_API_KEY };
    const secret = `sk-test-${randomUUID()}`;
    process.env.OPENAI_API_KEY = secret;
    process.env.GEMINI_API_KEY = secret;
    try {
      const result = await runSandboxed({ language: 'python', entry: 'main.py', files: [hostileScript('read-secrets.py')], timeoutMs: 30_000 }, { store });
      assert.equal(result.exitCode, 0, result.stderrTail);
      assert.match(result.stdoutTail, /OPENAI_API_KEY=absent/);
      assert.match(result.stdoutTail, /GEMINI_API_KEY=absent/);
      assert.match(result.stdoutTail, /ENV \[\]/);
      const fullLog = await store.getText(result.stdout.ref);
      assert.ok(!fullLog.includes(secret), 'the secret value appeared in the output');
      assert.doesNotMatch(fullLog, /LEAK/);
      assert.ok(!result.envNames.some((n) => /KEY/.test(n)));
    } finally {
      process.env.OPENAI_API_KEY = before.o;
      process.env.GEMINI_API_KEY = before.g;
      if (before.o === undefined) delete process.env.OPENAI_API_KEY;
      if (before.g === undefined) delete process.env.GEMINI_API_KEY;
    }
  });

  test('writes outside the work dir fail or stay invisible to the host', async (t) => {
    if (!fullIsolation) return t.skip('needs bwrap for a read-only root and a private /tmp');
    const tag = randomUUID();
    const inRepo = path.join(repoRoot, `evil-${tag}.txt`);
    const inTmp = path.join(os.tmpdir(), `evil-${tag}.txt`);
    const inArtifacts = path.join(store.root, `evil-${tag}.txt`);
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('write-outside.py')], args: [inRepo, inTmp, inArtifacts, '/etc/evil'], timeoutMs: 30_000 },
      { store },
    );
    try {
      assert.equal(result.exitCode, 0, result.stderrTail);
      assert.match(result.stdoutTail, new RegExp(`DENIED ${inRepo}`));
      assert.match(result.stdoutTail, /DENIED \/etc\/evil/);
      assert.equal(existsSync(inRepo), false);
      assert.equal(existsSync(inTmp), false, 'a /tmp write leaked to the host');
      assert.equal(existsSync(inArtifacts), false, 'the script reached the artifact store');
      assert.equal(existsSync('/etc/evil'), false);
    } finally {
      for (const f of [inRepo, inTmp, inArtifacts]) rmSync(f, { force: true });
    }
  });

  test('the code, the dataset (answer key) and the state dir are out of sight', async (t) => {
    if (!fullIsolation) return t.skip('needs bwrap to hide directories');
    const datasetParent = path.dirname(qmpBenchRoot);
    const script = [
      'import os, sys',
      'for d in sys.argv[1:]:',
      '    try:',
      '        print("LIST", d, sorted(os.listdir(d)))',
      '    except OSError as e:',
      '        print("LIST", d, "error", type(e).__name__)',
    ].join('\n');
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: script }], args: [repoRoot, datasetParent, store.root], timeoutMs: 30_000 },
      { store },
    );
    assert.equal(result.exitCode, 0, result.stderrTail);
    const listing = (d: string) => new RegExp(`LIST ${d} (.*)`).exec(result.stdoutTail)?.[1] ?? '';
    assert.doesNotMatch(listing(repoRoot), /package\.json|lib|schemas/, 'the repo is visible');
    // An empty mount point where the dataset is; on a host without the dataset there, nothing to list.
    assert.match(listing(datasetParent), existsSync(datasetParent) ? /^\[\]$/ : /^(\[\]|error FileNotFoundError)$/, 'the dataset is visible');
    assert.match(listing(store.root), /^\[\]$|error/, 'the artifact store is visible');
  });

  test('200 MB on stdout is counted, truncated to head + tail, and the run still reports exit 0', async () => {
    const rssBefore = process.memoryUsage().rss;
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('flood-stdout.py')], args: ['200'], timeoutMs: 120_000 },
      { store },
    );
    assert.equal(result.exitCode, 0, result.stderrTail);
    assert.equal(result.killedReason, null);
    assert.equal(result.stdout.totalBytes, 200 * 1024 * 1024);
    assert.equal(result.stdout.truncated, true);
    const stored = await store.get(result.stdout.ref);
    assert.ok(stored.length < 2 * 1024 * 1024 + 1024, `stored ${stored.length} bytes`);
    assert.match(stored.toString('utf8'), /bytes omitted of 209715200/);
    assert.ok(result.stdoutTail.length <= 8 * 1024 && result.stdoutTail.endsWith('x\n'));
    assert.ok(process.memoryUsage().rss - rssBefore < 150 * 1024 * 1024, 'capturing the flood grew the test process by > 150 MB');
    assert.ok(Buffer.byteLength(JSON.stringify(result)) < 16 * 1024, 'result is payload-sized');
  });

  test('runaway output past the kill threshold is stopped', async () => {
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('flood-stdout.py')], args: ['100000'], timeoutMs: 120_000, maxOutputBytes: 64 * 1024 },
      { store, killAfterOutputBytes: 20 * 1024 * 1024 },
    );
    assert.equal(result.killedReason, 'output-limit');
    assert.ok(result.stdout.totalBytes >= 20 * 1024 * 1024 && result.stdout.totalBytes < 1024 * 1024 * 1024);
  });

  test('a CPU-seconds cap stops a busy loop before the wall clock does', async (t) => {
    if (!fullIsolation) return t.skip('needs prlimit');
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('burn-cpu.py')], cpuSeconds: 1, timeoutMs: 60_000 },
      { store },
    );
    assert.equal(result.killedReason, null);
    assert.equal(result.ok, false);
    assert.equal(result.signal, 'SIGXCPU');
    assert.ok(result.durationMs < 30_000);
  });

  test('cancellation kills the run and throws SandboxCancelledError', async () => {
    const marker = `physvec-cancel-${randomUUID()}`;
    const ac = new AbortController();
    const running = runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('spawn-grandchildren.py')], args: [marker], timeoutMs: 60_000 },
      { store, signal: ac.signal },
    );
    await waitFor(() => pidsWithMarker(marker).length >= 5, 20_000, 'the script to start');
    ac.abort(new Error('test cancels'));
    await assert.rejects(running, (err: unknown) => {
      assert.ok(err instanceof SandboxCancelledError);
      assert.equal(err.result.killedReason, 'cancelled');
      assert.match(err.message, /cancelled/);
      return true;
    });
    assert.deepEqual(pidsWithMarker(marker), []);
    assertHealthy();
  });
});
