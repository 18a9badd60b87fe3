// What goes through the store, through a bucket on a real S3-compatible server (moto_server): a run's
// checkpoint saved by one worker and restored by another that shares no disk with it, run pins raced
// by two workers, and `physvec artifacts sync` moving a local state dir's store into a bucket.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { s3Backend } from '../../lib/artifacts/store-config.js';
import { pinnedRead } from '../../lib/artifacts/run-pins.js';
import { checkpointStoreFor } from '../../runners/sandbox/run-state/index.js';
import { CheckpointSync } from '../../runners/sandbox/run-state/checkpoint-sync.js';
import { MOTO_CREDENTIALS, startMoto, type Moto } from '../helpers/moto.js';
import { runCli } from '../cli/run-cli.js';

const MiB = 1024 * 1024;
let moto: Moto;
before(async () => {
  moto = await startMoto();
});
after(async () => moto?.stop());

/** A worker's view of the bucket: its own spool dir (its own host), the shared prefix. */
function workerStore(prefix: string): ArtifactStore {
  return new ArtifactStore(s3Backend({ bucket: moto.bucket, prefix, endpoint: moto.endpoint }, mkdtempSync(path.join(os.tmpdir(), 'physvec-host-')), MOTO_CREDENTIALS));
}

async function keysUnder(prefix: string): Promise<string[]> {
  const out = await moto.client().send(new ListObjectsV2Command({ Bucket: moto.bucket, Prefix: `${prefix}/` }));
  return (out.Contents ?? []).map((o) => o.Key!.slice(prefix.length + 1));
}

test('a checkpoint saved on one host is restored on another from the bucket alone', async () => {
  const prefix = `ckpt-${randomUUID().slice(0, 8)}`;
  const run = { workflowId: 'wf-1', runId: 'run-1', activityId: '7' };
  const onA = checkpointStoreFor(workerStore(prefix), run);
  const limits = { maxBytes: 1024 * MiB, maxFiles: 8, maxStoredBytes: 4096 * MiB, releaseAfterMs: 0 };
  const dirA = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-a-')), 'checkpoint');
  const a = new CheckpointSync(onA, dirA, limits);
  await a.restore(1);
  const state = randomBytes(20 * MiB); // over one upload part: a multipart upload
  writeFileSync(path.join(dirA, 'state.bin'), state);
  writeFileSync(path.join(dirA, 'meta.json'), JSON.stringify({ sweep: 3 }));
  const saved = await a.sync();
  assert.equal(saved?.files, 2, JSON.stringify(saved));
  const keys = await keysUnder(prefix);
  assert.ok(keys.length === 3 && keys.every((k) => k.startsWith('checkpoints/')), `the snapshot's blobs and manifest are under checkpoints/: ${keys.join(', ')}`);

  // Host B: another spool dir, another work dir; only the bucket and the heartbeat's state are shared.
  const onB = checkpointStoreFor(workerStore(prefix), run);
  const dirB = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-b-')), 'checkpoint');
  const b = new CheckpointSync(onB, dirB, limits, a.current());
  assert.equal(await b.restore(2), 2);
  assert.ok(readFileSync(path.join(dirB, 'state.bin')).equals(state), 'the restored state is byte for byte the saved one');
  assert.deepEqual(JSON.parse(readFileSync(path.join(dirB, 'meta.json'), 'utf8')), { sweep: 3 });
});

test('two workers racing to pin a run\'s read agree on one pin in the bucket', async () => {
  const prefix = `pins-${randomUUID().slice(0, 8)}`;
  const [one, two] = await Promise.all([
    pinnedRead(workerStore(prefix), 'run-x', 'data/cassettes/a.json', async () => Buffer.from('version A')),
    pinnedRead(workerStore(prefix), 'run-x', 'data/cassettes/a.json', async () => Buffer.from('version B')),
  ]);
  assert.equal(one.sha256, two.sha256);
  assert.equal(one.content.toString(), two.content.toString());
  assert.equal([one, two].filter((p) => p.pinnedNow).length, 1, 'exactly one read made the pin');
  const later = await pinnedRead(workerStore(prefix), 'run-x', 'data/cassettes/a.json', async () => Buffer.from('version C'));
  assert.equal(later.content.toString(), one.content.toString(), 'a later read (after a deploy) sees the pinned bytes');
});

test('physvec artifacts sync copies a local store into a bucket, idempotently, and says what it did', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-sync-'));
  const local = new ArtifactStore(dir);
  const script = await local.put('print(1)\n', { name: 'main.py' });
  const ckpt = await local.child('checkpoints/abc').putFile(writeTemp(3 * MiB));
  await pinnedRead(local, 'run-y', 'a.json', async () => Buffer.from('pinned'));
  mkdirSync(path.join(dir, '.incoming'), { recursive: true });
  writeFileSync(path.join(dir, '.incoming', 'half.tmp'), 'a write in flight is not an artifact');
  const prefix = `sync-${randomUUID().slice(0, 8)}`;
  const env = { ...MOTO_CREDENTIALS, AWS_ENDPOINT_URL_S3: moto.endpoint };
  const first = await runCli(['artifacts', 'sync', '--from', dir, '--to', `s3://${moto.bucket}/${prefix}`], env);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, new RegExp(`synced ${dir} to s3://${moto.bucket}/${prefix}: 4 objects \\(3\\.0 MiB\\); 4 copied \\(3\\.0 MiB\\), 0 already there`));
  const again = await runCli(['artifacts', 'sync', '--from', dir, '--to', `s3://${moto.bucket}/${prefix}/`, '--json'], env);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(JSON.parse(again.stdout), { from: dir, to: `s3://${moto.bucket}/${prefix}`, objects: 4, copied: 0, skipped: 4, copiedBytes: 0, totalBytes: 3 * MiB + 'print(1)\n'.length + 'pinned'.length + 65, results: null, reports: { folders: 0, copied: 0 } }, 'the pin is a sha256 and a newline; the state dir has no results store or reports');
  const bucket = workerStore(prefix);
  assert.equal(await bucket.getText(script), 'print(1)\n');
  assert.equal((await bucket.child('checkpoints/abc').get(ckpt)).length, 3 * MiB);
  assert.equal((await pinnedRead(bucket, 'run-y', 'a.json', async () => Buffer.from('other'))).content.toString(), 'pinned');

  assert.doesNotMatch(first.stderr, /Warning/, 'no SDK warning on the CLI\'s stderr');
  const down = await runCli(['artifacts', 'sync', '--from', dir, '--to', `s3://${moto.bucket}/${prefix}`], { ...env, AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' });
  assert.equal(down.code, 1);
  assert.match(down.stderr, /^physvec: artifact store: cannot look up s3:\/\/physvec-test\/sync-\w+\/.*: the object store at http:\/\/127\.0\.0\.1:9 did not answer \(ECONNREFUSED/m);
  assert.doesNotMatch(down.stderr, /Temporal/, 'the bucket\'s endpoint is not taken for the Temporal server');
  const bad = await runCli(['artifacts', 'sync', '--from', dir, '--to', 'https://example.com/x'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--to: "https:\/\/example\.com\/x" is not an s3:\/\/ URL; expected s3:\/\/<bucket>\/<prefix>/);
});

function writeTemp(bytes: number): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-f-')), 'state.bin');
  writeFileSync(file, randomBytes(bytes));
  return file;
}
