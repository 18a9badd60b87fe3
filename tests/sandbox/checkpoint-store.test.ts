// What a run's checkpoints cost the worker and the store: files are streamed in and out (the
// worker's memory does not grow with a checkpoint's size), superseded snapshots are removed (a
// script rewriting a large checkpoint leaves one or two snapshots' bytes, not one per rewrite),
// one run's stored bytes are capped, and every limit breach is told (heartbeat details, result line).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { RunStateWatcher } from '../../runners/sandbox/run-state/index.js';
import { CheckpointSync, type CheckpointLimits } from '../../runners/sandbox/run-state/checkpoint-sync.js';
import { bytesUnder } from '../fixtures/hostile/harness.js';
import { rssRise } from '../helpers/rss.js';

const MiB = 1024 * 1024;

function scratch(): { root: string; store: ArtifactStore; dir: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'physvec-ckpt-test-'));
  return { root, store: new ArtifactStore(path.join(root, 'store')), dir: path.join(root, 'run', 'checkpoint') };
}

/** A file of `mib` MiB written a MiB at a time (never whole in this process's memory). */
function writeLarge(file: string, mib: number, seed: number): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(MiB);
  for (let i = 0; i < mib; i++) {
    chunk.fill((seed * 31 + i) % 251);
    writeSync(fd, chunk);
  }
  closeSync(fd);
}

const generous = (over: Partial<CheckpointLimits> = {}): CheckpointLimits => ({ maxBytes: 1024 * MiB, maxFiles: 8, maxStoredBytes: 4096 * MiB, releaseAfterMs: 0, ...over });

// First in the file: the RSS a test before it freed would hide a rise.
test('restoring a large checkpoint does not grow the worker\'s memory with its size', async () => {
  const { store, root } = scratch();
  const mib = 192;
  const source = path.join(root, 'big.bin');
  writeLarge(source, mib, 2);
  const ref = await store.putFile(source, { name: 'big.bin' });
  const manifest = await store.putJson({ files: [{ name: 'big.bin', ref }] });
  const previous = { manifest, files: 1, bytes: ref.bytes, uploads: 1, uploadedBytes: ref.bytes, at: Date.now() };
  const target = path.join(root, 'run', 'checkpoint');
  const restore = new CheckpointSync(store, target, generous(), previous);
  const restored = await rssRise(() => restore.restore(2));
  assert.equal(statSync(path.join(target, 'big.bin')).size, mib * MiB);
  console.log(`# RSS rise restoring a ${mib} MiB checkpoint: ${(restored / MiB).toFixed(1)} MiB`);
  assert.ok(restored < 48 * MiB, `restoring ${mib} MiB raised RSS by ${(restored / MiB).toFixed(1)} MiB`);
});

test('a checkpoint rewritten five times leaves at most two snapshots in the store, one once the run is over', async () => {
  const { store, dir } = scratch();
  const size = 16 * MiB;
  const sync = new CheckpointSync(store, dir, generous());
  await sync.restore(1);
  const before = bytesUnder(store.root);
  let peak = 0;
  let last = Buffer.alloc(0);
  for (let i = 0; i < 5; i++) {
    last = randomBytes(size);
    writeFileSync(path.join(dir, 'state.bin'), last);
    writeFileSync(path.join(dir, 'meta.json'), JSON.stringify({ step: i }));
    const state = await sync.sync();
    assert.equal(state?.files, 2, JSON.stringify(state));
    assert.equal(state?.skipped, undefined);
    peak = Math.max(peak, bytesUnder(store.root) - before);
  }
  console.log(`# store grew by at most ${(peak / MiB).toFixed(1)} MiB over 5 rewrites of a ${size / MiB} MiB checkpoint`);
  assert.ok(peak <= 2 * size + MiB, `the store held ${(peak / MiB).toFixed(1)} MiB: more than two snapshots`);
  await sync.release(true);
  const after = bytesUnder(store.root) - before;
  assert.ok(after >= size && after <= size + MiB, `after the run the store holds ${(after / MiB).toFixed(1)} MiB: the last snapshot only`);

  // What is kept restores whole.
  const again = new CheckpointSync(store, path.join(dir, '..', '..', 'run2', 'checkpoint'), generous(), sync.current());
  assert.equal(await again.restore(2), 2);
  assert.ok(readFileSync(path.join(dir, '..', '..', 'run2', 'checkpoint', 'state.bin')).equals(last));
});

test('storing a large checkpoint does not grow the worker\'s memory with its size', async () => {
  const { store, dir } = scratch();
  const mib = 192;
  const sync = new CheckpointSync(store, dir, generous());
  await sync.restore(1);
  writeLarge(path.join(dir, 'big.bin'), mib, 1);
  const stored = await rssRise(() => sync.sync());
  assert.equal(sync.current()?.bytes, mib * MiB, JSON.stringify(sync.current()));
  console.log(`# RSS rise storing a ${mib} MiB checkpoint: ${(stored / MiB).toFixed(1)} MiB`);
  assert.ok(stored < 48 * MiB, `storing ${mib} MiB raised RSS by ${(stored / MiB).toFixed(1)} MiB`);
});

test('past the run\'s stored-bytes cap a snapshot is skipped with the reason; the last one stays valid', async () => {
  const { store, dir } = scratch();
  const size = 8 * MiB;
  const sync = new CheckpointSync(store, dir, generous({ maxStoredBytes: 12 * MiB, releaseAfterMs: 60_000 }));
  await sync.restore(1);
  writeFileSync(path.join(dir, 'state.bin'), randomBytes(size));
  const first = await sync.sync();
  assert.equal(first?.skipped, undefined);
  writeFileSync(path.join(dir, 'state.bin'), randomBytes(size));
  const second = await sync.sync();
  assert.equal(second?.manifest.sha256, first?.manifest.sha256, 'the first snapshot is still the checkpoint');
  assert.match(second?.skipped ?? '', /stored checkpoints would pass 12 MiB \(PHYSVEC_CHECKPOINT_MAX_STORED_MB; 8 MiB stored, 8 MiB changed\)/);
  assert.equal(sync.breach()?.skipped, 1);
  assert.ok(bytesUnder(store.root) <= 12 * MiB);
});

test('a first snapshot over the size limit is told: heartbeat details and the result line', async () => {
  const { store, root } = scratch();
  const watcher = new RunStateWatcher(store, {}, generous({ maxBytes: 1 * MiB }));
  const privateDir = path.join(root, 'private');
  await watcher.attach(privateDir, 1);
  writeFileSync(path.join(privateDir, 'checkpoint', 'state.bin'), randomBytes(2 * MiB));
  await watcher.poll();
  await watcher.poll();
  const details = watcher.details();
  assert.equal(details.checkpoint, undefined, 'no snapshot was taken');
  assert.deepEqual(details.checkpointLimit, { reason: 'over 1 MiB (PHYSVEC_CHECKPOINT_MAX_MB)', skipped: 2 });
  assert.equal(watcher.skipped(), 'over 1 MiB (PHYSVEC_CHECKPOINT_MAX_MB); 2 snapshots skipped');
  assert.equal(bytesUnder(store.root), 0, 'nothing of it was stored');
});
