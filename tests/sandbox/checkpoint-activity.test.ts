// The runScript activity with a script that rewrites a large checkpoint again and again: the store
// never holds more than the run's stored-bytes cap, and once the run has succeeded it holds the last
// snapshot only (formerly: one full copy per rewrite, 4.8 GB for two runs of a 900 MiB checkpoint).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createSandboxActivities } from '../../activities/sandbox/run-script.js';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import type { SandboxResult } from '../../schemas/sandbox.js';
import { bytesUnder, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const MiB = 1024 * 1024;

const REWRITER = `
import os, time
d = os.environ["PHYSVEC_CHECKPOINT_DIR"]
os.makedirs(d, exist_ok=True)
for i in range(5):
    tmp = os.path.join(d, ".state.bin.tmp")
    with open(tmp, "wb") as f:
        f.write(os.urandom(24 << 20))
    os.replace(tmp, os.path.join(d, "state.bin"))
    print("saved", i, flush=True)
    time.sleep(1.5)
`;

test('a script rewriting a 24 MiB checkpoint five times leaves one snapshot in the store', { timeout: 180_000 }, async () => {
  // Snapshot cap 32 MiB, so the run's stored-bytes cap is 64 MiB (two snapshots).
  process.env.PHYSVEC_CHECKPOINT_MAX_MB = '32';
  const store = new ArtifactStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-ckpt-activity-')), 'artifacts'));
  const before = bytesUnder(store.root);
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, bytesUnder(store.root) - before);
  }, 100);
  const beats: Record<string, unknown>[] = [];
  const env = new MockActivityEnvironment();
  env.on('heartbeat', (d: unknown) => beats.push(d as Record<string, unknown>));
  let result: SandboxResult;
  try {
    result = (await env.run(createSandboxActivities(store, { heartbeatMs: 250 }).runScript, { language: 'python' as const, entry: 'main.py', files: [{ path: 'main.py', content: REWRITER }], timeoutMs: 120_000 })) as SandboxResult;
  } finally {
    clearInterval(sampler);
    delete process.env.PHYSVEC_CHECKPOINT_MAX_MB;
  }
  assert.equal(result.exitCode, 0, result.stderrTail);
  const after = bytesUnder(store.root) - before;
  const manifests = new Set(beats.map((b) => (b.checkpoint as { manifest?: { sha256: string } } | undefined)?.manifest?.sha256).filter(Boolean));
  console.log(`# store: peak +${(peak / MiB).toFixed(1)} MiB during the run, +${(after / MiB).toFixed(1)} MiB after it; ${manifests.size} snapshots heartbeated; checkpointSkipped: ${result.checkpointSkipped ?? 'none'}`);
  assert.ok(manifests.size >= 2, `the rewrites were snapshotted: ${manifests.size}`);
  assert.ok(peak <= 64 * MiB + MiB, `the store held ${(peak / MiB).toFixed(1)} MiB, past the run's 64 MiB cap`);
  assert.ok(after >= 24 * MiB && after <= 25 * MiB, `after the run the store holds ${(after / MiB).toFixed(1)} MiB: the last snapshot only`);
});
