// The artifact store's contract, run against both backends with the same table: the local directory
// and an S3-compatible bucket on a real server (moto_server on loopback, tests/helpers/moto.ts). Puts
// are idempotent and write-once, a stream past its limit leaves nothing, a large object is streamed in
// parts and back (the worker's memory does not grow with it), a missing object's error names it and
// where the store is, copyOut gives a local file (what a sandbox work dir needs) from either backend.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, createReadStream, existsSync, openSync, writeSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ArtifactStore, StreamTooLargeError } from '../../lib/artifacts/store.js';
import { ArtifactMissingError, ArtifactStoreUnavailableError, isStoreUnavailable } from '../../lib/artifacts/blob-backend.js';
import { s3Backend } from '../../lib/artifacts/store-config.js';
import { MOTO_CREDENTIALS, startMoto, type Moto } from '../helpers/moto.js';
import { rssRise } from '../helpers/rss.js';

const MiB = 1024 * 1024;
/**
 * Large enough that a store buffering it whole would pass the bound (half of it) by far. A streamed
 * store's rise does not grow with the size but is not small either: garbage buffers V8 frees only past
 * its external-memory slack (~35 MiB here, up to ~65 MiB on a loaded host) and the upload's parts in flight.
 */
const SIZE_MIB = 192;

/** A file of `mib` MiB of deterministic bytes written a MiB at a time (never whole in memory); its sha256. */
function largeFile(mib: number, seed: number): { file: string; sha256: string } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-large-')), 'state.bin');
  const fd = openSync(file, 'w');
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(MiB);
  for (let i = 0; i < mib; i++) {
    chunk.fill((seed * 31 + i) % 251);
    hash.update(chunk);
    writeSync(fd, chunk);
  }
  closeSync(fd);
  return { file, sha256: hash.digest('hex') };
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

interface Backend {
  name: string;
  make(): ArtifactStore;
  /** Every stored object's key under the store (local: files; bucket: objects under its prefix), spool excluded. */
  keys(store: ArtifactStore): Promise<string[]>;
}

function localFiles(dir: string, rel = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name === '.incoming' ? [] : e.isDirectory() ? localFiles(path.join(dir, e.name), `${rel}${e.name}/`) : [`${rel}${e.name}`],
  );
}

let moto: Moto;
before(async () => {
  moto = await startMoto();
});
after(async () => moto?.stop());

const backends: Backend[] = [
  {
    name: 'local directory',
    make: () => new ArtifactStore(mkdtempSync(path.join(os.tmpdir(), 'physvec-store-'))),
    keys: async (store) => localFiles(store.root),
  },
  {
    name: 'S3 bucket (moto_server)',
    make: () => new ArtifactStore(s3Backend({ bucket: moto.bucket, prefix: `contract/${randomUUID().slice(0, 8)}`, endpoint: moto.endpoint }, mkdtempSync(path.join(os.tmpdir(), 'physvec-spool-')), MOTO_CREDENTIALS)),
    keys: async (store) => {
      const prefix = store.location.replace(`s3://${moto.bucket}/`, '');
      const out = await moto.client().send(new ListObjectsV2Command({ Bucket: moto.bucket, Prefix: `${prefix}/` }));
      return (out.Contents ?? []).map((o) => o.Key!.slice(prefix.length + 1));
    },
  },
];

for (const b of backends) {
  describe(`artifact store contract: ${b.name}`, () => {
    test('a put is idempotent: the same content twice is one object under its sha256', async () => {
      const store = b.make();
      const one = await store.put('print("hello")\n', { name: 'main.py' });
      const two = await store.put('print("hello")\n', { name: 'main.py' });
      assert.deepEqual(two, one);
      assert.equal(one.sha256, createHash('sha256').update('print("hello")\n').digest('hex'));
      assert.equal(await store.getText(one), 'print("hello")\n');
      assert.deepEqual(await b.keys(store), [`${one.sha256.slice(0, 2)}/${one.sha256.slice(2)}`]);
      const json = await store.putJson({ a: 1 }, 'a.json');
      assert.deepEqual(await store.getJson(json), { a: 1 });
    });

    test('a write-once key keeps its first writer\'s content', async () => {
      const store = b.make();
      assert.equal(await store.backend.createOnce('pins/x', Buffer.from('first')), true);
      assert.equal(await store.backend.createOnce('pins/x', Buffer.from('second')), false);
      assert.equal((await store.backend.read('pins/x')).toString(), 'first');
    });

    test('a stream past its limit is refused and leaves nothing, in the store or its spool', async () => {
      const store = b.make();
      await assert.rejects(store.putStream(createReadStream(largeFile(3, 1).file), { name: 'big.bin' }, 2 * MiB), StreamTooLargeError);
      assert.deepEqual(await b.keys(store), []);
      assert.deepEqual(readdirSync(path.join(store.root, '.incoming')), [], 'no half file in the spool');
      const ok = await store.putStream(Readable.from([Buffer.from('small')]), { name: 's.txt' }, 2 * MiB);
      assert.equal(ok.created, true);
      assert.equal((await store.putStream(Readable.from([Buffer.from('small')]), {}, 2 * MiB)).created, false);
    });

    test('a 192 MiB object is streamed in and out: the worker\'s memory holds a bounded part of it, never the whole', async () => {
      const store = b.make();
      const source = largeFile(SIZE_MIB, 7);
      let ref: Awaited<ReturnType<ArtifactStore['putStream']>> | undefined;
      const stored = await rssRise(async () => (ref = await store.putStream(createReadStream(source.file), { name: 'state.bin' })));
      assert.equal(ref!.sha256, source.sha256);
      assert.equal(ref!.bytes, SIZE_MIB * MiB);
      const target = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-out-')), 'state.bin');
      const restored = await rssRise(() => store.copyOut(ref!, target));
      assert.equal(statSync(target).size, SIZE_MIB * MiB);
      assert.equal(await sha256File(target), ref!.sha256);
      console.log(`# ${b.name}: RSS rise storing ${SIZE_MIB} MiB ${(stored / MiB).toFixed(1)} MiB, restoring ${(restored / MiB).toFixed(1)} MiB`);
      assert.ok(stored < (SIZE_MIB / 2) * MiB, `storing ${SIZE_MIB} MiB raised RSS by ${(stored / MiB).toFixed(1)} MiB`);
      assert.ok(restored < (SIZE_MIB / 2) * MiB, `restoring ${SIZE_MIB} MiB raised RSS by ${(restored / MiB).toFixed(1)} MiB`);
    });

    test('a missing object\'s error names it and where the store is', async () => {
      const store = b.make();
      const sha = 'ab'.repeat(32);
      await assert.rejects(store.get(sha), (e: Error) => e instanceof ArtifactMissingError && e.message.includes(`artifact ${sha} is not in the store at ${store.location}`));
      const target = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-out-')), 'x');
      await assert.rejects(store.copyOut(sha, target), ArtifactMissingError);
      assert.equal(existsSync(target), false, 'no empty file left where the artifact was to go');
    });

    test('copyOut writes a new local file, never over one unless asked; remove deletes the object', async () => {
      const store = b.make();
      const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-out-'));
      const ref = await store.put('E0 = -1.5\n', { name: 'out.txt' });
      await store.copyOut(ref, path.join(dir, 'out.txt'));
      assert.equal(readFileSync(path.join(dir, 'out.txt'), 'utf8'), 'E0 = -1.5\n');
      writeFileSync(path.join(dir, 'other.txt'), 'keep me');
      await assert.rejects(store.copyOut(ref, path.join(dir, 'other.txt')), /EEXIST/);
      assert.equal(readFileSync(path.join(dir, 'other.txt'), 'utf8'), 'keep me');
      await store.copyOut(ref, path.join(dir, 'other.txt'), { overwrite: true });
      assert.equal(readFileSync(path.join(dir, 'other.txt'), 'utf8'), 'E0 = -1.5\n');
      await store.remove(ref.sha256);
      await assert.rejects(store.get(ref), ArtifactMissingError);
      assert.deepEqual(await b.keys(store), []);
    });

    test('a child store keeps its objects under its own prefix', async () => {
      const store = b.make();
      const child = store.child('checkpoints/run1');
      const ref = await child.put('snapshot');
      assert.deepEqual(await b.keys(store), [`checkpoints/run1/${ref.sha256.slice(0, 2)}/${ref.sha256.slice(2)}`]);
      await assert.rejects(store.get(ref), ArtifactMissingError, 'the parent store does not see the child\'s objects by sha');
      assert.match(child.describe(ref.sha256), /checkpoints\/run1\//);
    });
  });
}

describe('a bucket the worker cannot use is an infrastructure fault naming the bucket and the fix', () => {
  const spool = () => mkdtempSync(path.join(os.tmpdir(), 'physvec-spool-'));
  const isUnavailable = (pattern: RegExp) => (e: Error) => e instanceof ArtifactStoreUnavailableError && pattern.test(e.message) && isStoreUnavailable(new Error('wrapped', { cause: e }));

  test('an endpoint that does not answer', async () => {
    const store = new ArtifactStore(s3Backend({ bucket: moto.bucket, prefix: 'x', endpoint: 'http://127.0.0.1:9' }, spool(), MOTO_CREDENTIALS));
    await assert.rejects(store.put('x'), isUnavailable(/s3:\/\/physvec-test\/x\/.* the object store at http:\/\/127\.0\.0\.1:9 did not answer \(ECONNREFUSED.*AWS_ENDPOINT_URL_S3/));
  });

  test('a bucket that does not exist', async () => {
    const store = new ArtifactStore(s3Backend({ bucket: 'no-such-bucket', prefix: '', endpoint: moto.endpoint }, spool(), MOTO_CREDENTIALS));
    await assert.rejects(store.put('x'), isUnavailable(/bucket "no-such-bucket" does not exist at http:\/\/127\.0\.0\.1:\d+; create it, or fix artifacts\.s3\.bucket/));
    await assert.rejects(store.get('ab'.repeat(32)), isUnavailable(/bucket "no-such-bucket" does not exist/));
  });

  test('no credentials at all', async () => {
    const noAws = { AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: '/nonexistent', AWS_SHARED_CREDENTIALS_FILE: '/nonexistent' };
    const saved = Object.fromEntries(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE', ...Object.keys(noAws)].map((k) => [k, process.env[k]]));
    for (const k of Object.keys(saved)) delete process.env[k];
    Object.assign(process.env, noAws);
    try {
      const store = new ArtifactStore(s3Backend({ bucket: moto.bucket, prefix: '', endpoint: moto.endpoint }, spool(), {}));
      await assert.rejects(store.put('x'), isUnavailable(/refused this worker's credentials .*set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/));
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
  });
});
