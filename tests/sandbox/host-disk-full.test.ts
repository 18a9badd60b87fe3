// Issue 26: a full HOST disk is an infrastructure fault, never the script's result. Real sandbox
// runs through the runScript activity (MockActivityEnvironment, and once on the real Temporal
// server), with the free-space probe injected so a test can say "the file system has 1 MiB free";
// and, where this host lets root mount one, a real tmpfs state dir that the script fills up.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { WorkflowFailedError, type Client, type Connection } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure, defaultPayloadConverter, type LogLevel, type Payload } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger, NativeConnection, Worker, bundleWorkflowCode, type LogEntry } from '@temporalio/worker';
import { createSandboxActivities, HOST_DISK_FULL_FAILURE, type SandboxActivityOptions } from '../../activities/sandbox/run-script.js';
import { liveSimulations } from '../../cli/runs/live-simulations.js';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { HostDisk, HostDiskFullError, hostDiskFor, runSandboxed, sandboxRoot, type FreeSpaceProbe } from '../../runners/sandbox/index.js';
import { RunStateWatcher } from '../../runners/sandbox/run-state/index.js';
import type { FileSystemSpace } from '../../schemas/host-disk.js';
import type { SandboxRequestInput, SandboxResult } from '../../schemas/sandbox.js';
import { ensureServer, testClient, uniqueQueue } from '../helpers/temporal.js';
import { pidsWithMarker, testStore, useTestStateDir, waitFor } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();
const MiB = 1024 * 1024;

/** A 36 MiB file system with 1 MiB left (the tmpfs, nearly full). */
const ONE_MIB_FREE: FileSystemSpace = { bsize: 4096, blocks: (36 * MiB) / 4096, bavail: MiB / 4096, files: 100_000, ffree: 90_000 };
/** 400 GiB with 200 GiB free. */
const PLENTY: FileSystemSpace = { bsize: 4096, blocks: (400 * 1024 * MiB) / 4096, bavail: (200 * 1024 * MiB) / 4096, files: 10_000_000, ffree: 9_000_000 };
const always = (space: FileSystemSpace): FreeSpaceProbe => () => Promise.resolve(space);

/** Prints a Python out-of-space traceback and exits 1, after `argv[1]` seconds (argv[2]: a marker for pidsWithMarker). */
const ERRNO_28 = `import sys, time
print("saving the checkpoint", flush=True)
time.sleep(float(sys.argv[1]))
sys.stderr.write('Traceback (most recent call last):\\n  File "main.py", line 9, in <module>\\nOSError: [Errno 28] No space left on device\\n')
sys.exit(1)
`;
function errno28Request(seconds: number, marker = 'none'): SandboxRequestInput {
  return { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: ERRNO_28 }], args: [String(seconds), marker], timeoutMs: 60_000 };
}

interface Logged {
  level: LogLevel;
  message: string;
}

/** runScript in an activity context (attempt 1, no earlier details), with its heartbeats and log lines. */
function inActivity(opts: SandboxActivityOptions, activityStore: ArtifactStore = store) {
  const beats: Record<string, unknown>[] = [];
  const logs: Logged[] = [];
  const logger = new DefaultLogger('WARN', (e: LogEntry) => logs.push({ level: e.level, message: e.message }));
  const env = new MockActivityEnvironment({}, { logger });
  env.on('heartbeat', (d: Record<string, unknown>) => beats.push(d));
  const { runScript } = createSandboxActivities(activityStore, { heartbeatMs: 100, ...opts });
  return { env, beats, logs, run: (req: SandboxRequestInput): Promise<SandboxResult> => env.run(runScript, req) };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (r) => assert.fail(`expected a failure, got ${JSON.stringify(r).slice(0, 300)}`),
    (e: unknown) => e,
  );
}

describe('a full host disk is an infrastructure fault, not a script result', () => {
  test('the disk fills while the script runs: the activity throws a retryable HostDiskFull naming the path and the fix, and counts no own failure', async () => {
    // Plenty of room when the run starts (the pre-start check passes); 1 MiB once the script is running.
    let full = false;
    const marker = `physvec-host-disk-${randomUUID()}`;
    const a = inActivity({ freeSpace: (p) => (full ? Promise.resolve(ONE_MIB_FREE) : statfs(p)) });
    const running = a.run(errno28Request(1.5, marker));
    await waitFor(() => pidsWithMarker(marker).length > 0, 30_000, 'the script to start');
    full = true;
    const err = await rejection(running);
    assert.ok(err instanceof ApplicationFailure, String(err));
    assert.equal(err.type, HOST_DISK_FULL_FAILURE);
    assert.equal(err.nonRetryable, false);
    assert.equal(err.nextRetryDelay, 30_000, 'retried after ~30 s, not at the policy\'s 5 s');
    const root = sandboxRoot();
    assert.ok(err.message.includes(`${root}/`), `the message names the run's work dir: ${err.message}`);
    assert.match(err.message, /has 1\.0 MiB free of 36\.0 MiB, below the 64\.0 MiB/);
    assert.match(err.message, /free space on \/\S*; the run continues by itself/);
    assert.match(err.message, /not the script's fault/);
    assert.match(err.message, /exited 1; the script's output says "\[Errno 28\]"/);
    const shortage = err.details?.[0] as { path: string; freeBytes: number; mount: string };
    assert.ok(shortage.path.startsWith(root), shortage.path);
    assert.equal(shortage.freeBytes, MiB);
    const last = a.beats.at(-1)!;
    assert.equal(last.phase, 'host-disk-full');
    assert.equal(last.ownFailures, 0, 'the host\'s full disk is not one of the run\'s own failures');
  });

  test('the same output with plenty of room is the script\'s own result: exit 1, no failure', async () => {
    const a = inActivity({ freeSpace: always(PLENTY) });
    const result = await a.run(errno28Request(0));
    assert.equal(result.exitCode, 1);
    assert.equal(result.ok, false);
    assert.match(result.stderrTail, /OSError: \[Errno 28\] No space left on device/);
  });

  test('a full disk before the start: the run waits (heartbeating, one log line a minute at most), then starts and passes', async () => {
    let calls = 0;
    // Full for the first three looks, then room: as if someone freed space while the run waited.
    const a = inActivity({ freeSpace: (p) => (++calls <= 3 ? Promise.resolve(ONE_MIB_FREE) : statfs(p)) });
    const result = await a.run({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print("ran after the wait")' }], timeoutMs: 60_000 });
    assert.equal(result.exitCode, 0, result.stderrTail);
    assert.match(result.stdoutTail, /ran after the wait/);
    const waits = a.beats.filter((b) => b.phase === 'waiting-for-disk');
    // One beat per look; a look slower than the beat interval (a busy host) has its beat repeated, the same details.
    assert.equal(new Set(waits.map((b) => b.hostDisk)).size, 3, 'one heartbeat per look while it waited');
    assert.equal((waits[0]!.hostDisk as { freeBytes: number }).freeBytes, MiB);
    assert.equal(waits[0]!.ownFailures, 0);
    const waitLines = a.logs.filter((l) => /waiting for disk space/.test(l.message));
    assert.equal(waitLines.length, 1, `one log line for a wait shorter than a minute: ${JSON.stringify(a.logs)}`);
    assert.match(waitLines[0]!.message, /1\.0 MiB free of 36\.0 MiB.*free space on \/\S*; the run starts by itself/);
    assert.ok(a.logs.some((l) => /disk space is back/.test(l.message)));
    // The line `physvec status` prints for such a heartbeat.
    const pending = { activityType: { name: 'runJob' }, attempt: 1, heartbeatDetails: { payloads: [defaultPayloadConverter.toPayload(waits[0])] } };
    assert.match(liveSimulations([pending as never])[0]!.line, /waiting for disk space: \/\S+ \(file system at \/\S*\) has 1\.0 MiB free of 36\.0 MiB, below the 64\.0 MiB sandbox runs need; free space on \//);
  });

  test('cancelled while it waits for space: the attempt ends cancelled, nothing started', async () => {
    const a = inActivity({ freeSpace: always(ONE_MIB_FREE) });
    const running = a.run(errno28Request(0));
    await waitFor(() => a.beats.some((b) => b.phase === 'waiting-for-disk'), 10_000, 'the wait to begin');
    a.env.cancel();
    const err = await rejection(running);
    assert.ok(err instanceof CancelledFailure, String(err));
  });

  test('a run killed at its own disk cap stays the script\'s result (killed: disk), full host or not', async () => {
    const fill = `import time
with open("big.bin", "wb") as f:
    f.write(b"x" * (40 * 1024 * 1024))
print("OSError: [Errno 28] No space left on device", flush=True)
time.sleep(30)
`;
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: fill }], diskMb: 16, timeoutMs: 60_000 },
      { store, hostDisk: hostDiskFor(store, always(ONE_MIB_FREE)) },
    );
    assert.equal(result.killedReason, 'disk', result.stdoutTail);
  });

  test('the artifact store\'s write of the logs raising ENOSPC on a full disk is HostDiskFull; on a disk with room it stays the error it was', async () => {
    class FullStore extends ArtifactStore {
      override put(content: string | Uint8Array, meta: { name?: string; mediaType?: string } = {}) {
        if (meta.name?.endsWith('.stdout.txt')) return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
        return super.put(content, meta);
      }
    }
    const full = new FullStore(store.root);
    const req = { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print(1)' }], timeoutMs: 60_000 } satisfies SandboxRequestInput;
    const err = await rejection(runSandboxed(req, { store: full, hostDisk: hostDiskFor(full, always(ONE_MIB_FREE)) }));
    assert.ok(err instanceof HostDiskFullError, String(err));
    assert.match(err.message, /a worker-side write failed: ENOSPC/);
    assert.equal((err.cause as { code?: string }).code, 'ENOSPC');
    const plain = await rejection(runSandboxed(req, { store: full, hostDisk: hostDiskFor(full, always(PLENTY)) }));
    assert.ok(!(plain instanceof HostDiskFullError) && (plain as { code?: string }).code === 'ENOSPC', String(plain));
  });

  test('a checkpoint snapshot that failed with ENOSPC is evidence: a run that then fails silently on a full disk is HostDiskFull', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-host-disk-ckpt-'));
    try {
      const failing = new (class extends ArtifactStore {
        override put(): never {
          throw Object.assign(new Error('ENOSPC: no space left on device, open'), { code: 'ENOSPC' });
        }

        // Checkpoint files are streamed in.
        override putStream(): never {
          return this.put();
        }
      })(store.root);
      const hostDisk = hostDiskFor(store, always(ONE_MIB_FREE));
      const watcher = new RunStateWatcher(failing, {}, undefined, (e) => hostDisk.noteWriteError(e));
      await watcher.attach(dir, 1);
      writeFileSync(path.join(dir, 'checkpoint', 'state.npz'), 'x'.repeat(1000));
      await watcher.poll();
      // The script exits 1 without a word about space: only the worker's failed snapshot says it.
      const req = { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'raise SystemExit(1)' }], timeoutMs: 60_000 } satisfies SandboxRequestInput;
      const err = await rejection(runSandboxed(req, { store, hostDisk }));
      assert.ok(err instanceof HostDiskFullError, String(err));
      assert.match(err.message, /a worker-side write failed: ENOSPC: no space left on device, open/);
      const silent = await runSandboxed(req, { store, hostDisk: new HostDisk(() => [sandboxRoot()], always(ONE_MIB_FREE)) });
      assert.equal(silent.exitCode, 1, 'without any out-of-space evidence a failed run is the script\'s result, full disk or not');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Mount a tmpfs of `mb` MiB (root only); null when this host does not allow it. */
function mountTmpfs(mb: number): string | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-host-disk-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m,mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

describe('a real full tmpfs as the state dir', () => {
  const mounted = mountTmpfs(96);
  const savedStateDir = process.env.PHYSVEC_STATE_DIR;
  after(() => {
    process.env.PHYSVEC_STATE_DIR = savedStateDir;
    if (mounted) {
      execFileSync('umount', [mounted]);
      rmSync(mounted, { recursive: true, force: true });
    }
  });

  test('the script fills the state dir\'s file system: HostDiskFull with the real free space; once the run\'s files are gone, the next attempt runs', { skip: mounted ? false : 'mount -t tmpfs is not allowed here' }, async () => {
    process.env.PHYSVEC_STATE_DIR = mounted!;
    await mkdir(sandboxRoot(), { recursive: true });
    const tmpStore = new ArtifactStore(path.join(mounted!, 'artifacts'));
    const fill = `with open("fill.bin", "wb") as f:
    while True:
        f.write(b"\\1" * (1024 * 1024))
        f.flush()
`;
    // The run's own cap (1 GiB) is far above the 96 MiB the file system has: the host is what is short.
    const err = await rejection(inActivity({}, tmpStore).run({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: fill }], diskMb: 1024, timeoutMs: 60_000 }));
    assert.ok(err instanceof ApplicationFailure, String(err));
    assert.equal(err.type, HOST_DISK_FULL_FAILURE, err.message);
    assert.equal(err.nonRetryable, false);
    assert.ok(err.message.includes(mounted!), err.message);
    assert.match(err.message, new RegExp(`free space on ${mounted!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; the run continues by itself`));
    const shortage = err.details?.[0] as { freeBytes: number; mount: string };
    assert.equal(shortage.mount, mounted);
    assert.ok(shortage.freeBytes < 64 * MiB, `${shortage.freeBytes} bytes free`);
    // The failed run's work dir was removed: the space is back and the same activity runs the next attempt.
    const ok = await inActivity({}, tmpStore).run({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print("room again")' }], timeoutMs: 60_000 });
    assert.equal(ok.exitCode, 0, ok.stderrTail);
  });
});

describe('on the real Temporal server: the workflow keeps running while the disk is full and continues once space is freed', () => {
  const workflowsPath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'hostile', 'run-script.workflow.ts');
  const quietLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  let client: Client;
  let connection: Connection;
  let nativeConnection: NativeConnection;
  before(async () => {
    const address = await ensureServer();
    ({ client, connection } = await testClient());
    nativeConnection = await NativeConnection.connect({ address });
  });
  after(async () => {
    await connection?.close();
    await nativeConnection?.close();
  });

  test('HostDiskFull → retried (status shows it) → waits for space → runs when freed; no own failure used up', async () => {
    let full = false;
    const marker = `physvec-host-disk-wf-${randomUUID()}`;
    const taskQueue = uniqueQueue('host-disk');
    const worker = await Worker.create({
      connection: nativeConnection,
      namespace: 'default',
      taskQueue,
      workflowBundle: await bundleWorkflowCode({ workflowsPath, logger: quietLogger }),
      activities: createSandboxActivities(store, { heartbeatMs: 300, hostDiskRetryDelayMs: 3_000, freeSpace: (p) => (full ? Promise.resolve(ONE_MIB_FREE) : statfs(p)) }),
      maxCachedWorkflows: 0,
    });
    const handle = await client.workflow.start('runScriptWorkflow', { taskQueue, workflowId: `host-disk-${randomUUID()}`, args: [errno28Request(1.5, marker)] });
    const outcome = await worker.runUntil(async () => {
      await waitFor(() => pidsWithMarker(marker).length > 0, 30_000, 'the first attempt to start');
      full = true;
      const lines: string[] = [];
      let details: { ownFailures?: number } = {};
      const statusLine = async () => {
        const d = await handle.describe();
        assert.equal(d.status.name, 'RUNNING', 'a full disk never closes the run');
        const payload = d.raw.pendingActivities?.[0]?.heartbeatDetails?.payloads?.[0];
        if (payload) details = defaultPayloadConverter.fromPayload(payload as Payload);
        const line = liveSimulations(d.raw.pendingActivities)[0]?.line ?? '';
        lines.push(line);
        return line;
      };
      // Between the attempts (retry delay): the last failure, readable. Then attempt 2 waits for space.
      await poll(async () => /last failure \[HostDiskFull\]: sandbox run: the host's disk is full.*free space on \/\S*; the run continues by itself/.test(await statusLine()), 20_000, () => lines.join('\n'));
      await poll(async () => /attempt 2.*waiting for disk space: .*has 1\.0 MiB free/.test(await statusLine()), 20_000, () => lines.join('\n'));
      assert.equal(details.ownFailures, 0, 'the failed attempt used up none of the run\'s own failures');
      full = false;
      return handle.result().then((r: SandboxResult) => r, (e: unknown) => e);
    });
    assert.ok(!(outcome instanceof WorkflowFailedError), String(outcome));
    // With room, the same output is the script's own result, from the second attempt.
    const result = outcome as SandboxResult;
    assert.equal(result.exitCode, 1);
    assert.match(result.stderrTail, /Errno 28/);
  });
});

async function poll(ok: () => Promise<boolean>, timeoutMs: number, seen: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) assert.fail(`timed out; status lines seen:\n${seen()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
