// The results store's contract, run against both backends with the same table: SQLite in a state dir
// (the embedded default) and keyed objects in a bucket on a real S3-compatible server (moto_server on
// loopback, tests/helpers/moto.ts). Upserts are idempotent, a skipped run never hides one that
// happened, closing again keeps the first end, bad writes name what to fix, the previous campaign is
// found by schedule then label, runs come back in one order, forgotten runs are gone, and two writers
// recording one campaign's runs at once lose none. For the bucket: a campaign record changed under a
// writer (its ETag moved) makes the writer's conditional PUT fail, and it reapplies its change.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { s3Backend } from '../../lib/artifacts/store-config.js';
import { BadInputError } from '../../lib/errors.js';
import { BucketResultsStore } from '../../lib/results/bucket-results.js';
import { countOf, requireCampaign, type ResultsStore } from '../../lib/results/results-store.js';
import { SqliteResultsStore } from '../../lib/results/sqlite-results.js';
import { MOTO_CREDENTIALS, startMoto, type Moto } from '../helpers/moto.js';
import { run } from './records.js';

let moto: Moto;
before(async () => {
  moto = await startMoto();
});
after(async () => moto?.stop());

const tmp = (p: string) => mkdtempSync(path.join(os.tmpdir(), p));

/** A host's view of the bucket at `prefix`: its own spool dir, the shared objects. */
const inBucket = (prefix: string) => new BucketResultsStore(s3Backend({ bucket: moto.bucket, prefix, endpoint: moto.endpoint }, tmp('physvec-host-'), MOTO_CREDENTIALS));

interface Backend {
  name: string;
  /** A fresh, empty store, and a second writer's handle on the same store (another process or host). */
  make(): { store: ResultsStore; other: () => ResultsStore };
}

const backends: Backend[] = [
  {
    name: 'SQLite (state dir)',
    make: () => {
      const file = path.join(tmp('physvec-results-'), 'results.sqlite');
      return { store: new SqliteResultsStore(file), other: () => new SqliteResultsStore(file) };
    },
  },
  {
    name: 'S3 bucket (moto_server)',
    make: () => {
      const prefix = `results-${randomUUID().slice(0, 8)}`;
      return { store: inBucket(prefix), other: () => inBucket(prefix) };
    },
  },
];

const open = (store: ResultsStore, campaignId: string, extra: { scheduleId?: string | null; label?: string | null } = {}, at?: string) =>
  store.openCampaign({ campaignId, workflowId: `wf-${campaignId}`, scheduleId: extra.scheduleId ?? null, label: extra.label ?? null, spec: { models: ['scripted:m1'], passCriterion: 'executable' }, planned: 4 }, at);

for (const b of backends) {
  describe(`results store contract: ${b.name}`, () => {
    test('an empty store finds nothing, and reading it creates nothing', async () => {
      const { store } = b.make();
      assert.equal(await store.getCampaign('c'), null);
      assert.deepEqual(await store.listCampaigns(), []);
      assert.deepEqual(await store.campaignRuns('c'), []);
      assert.deepEqual(await store.recordedKeys('c'), []);
      if (store instanceof SqliteResultsStore) assert.equal(store.exists(), false, 'no SQLite file made by reads');
    });

    test('upserts are idempotent: one campaign, one record per run key, the first start and end kept', async () => {
      const { store } = b.make();
      await open(store, 'c-idem', {}, '2026-01-01T00:00:00.000Z');
      await open(store, 'c-idem', {}, '2026-01-02T00:00:00.000Z'); // a retried openCampaign
      assert.equal((await store.listCampaigns()).length, 1);
      assert.equal((await store.getCampaign('c-idem'))!.startedAt, '2026-01-01T00:00:00.000Z');

      const r1 = run({ campaignId: 'c-idem', task: 't1', m: { executable: false, tokensIn: 10 } });
      await store.recordRun(r1);
      await store.recordRun(r1);
      await store.recordRun({ ...r1, metrics: { ...r1.metrics!, executable: true, executableAtIteration: 2, tokensIn: 20 } }); // recorded again, newer
      await store.recordRun({ ...r1, outcome: 'skipped', metrics: null }); // a late "skipped" never hides a run that happened
      await store.recordRun(run({ campaignId: 'c-idem', task: 't2', m: null }));
      await store.recordRun(run({ campaignId: 'c-idem', task: 't2', m: { message: 'ran after all' } })); // a run over a skipped one
      const runs = await store.campaignRuns('c-idem');
      assert.deepEqual(runs.map((r) => [r.taskId, r.outcome, r.metrics?.executable ?? null, r.metrics?.tokensIn ?? null]), [['t1', 'done', true, 20], ['t2', 'done', false, 0]]);
      assert.deepEqual(await store.recordedKeys('c-idem'), runs.map((r) => r.key).sort());
      assert.deepEqual(countOf(runs), { recorded: 2, done: 2, error: 0, skipped: 0 });

      await store.closeCampaign('c-idem', 'completed', '2026-01-01T01:00:00.000Z');
      await store.closeCampaign('c-idem', 'completed', '2026-01-01T02:00:00.000Z'); // a retried closeCampaign
      const closed = (await store.getCampaign('c-idem'))!;
      assert.deepEqual([closed.status, closed.endedAt], ['completed', '2026-01-01T01:00:00.000Z']);
      await store.setReportPath('c-idem', 's3://b/p/campaigns/c-idem/report.html');
      await open(store, 'c-idem', {}, '2026-01-03T00:00:00.000Z'); // resumed: running again, its runs and report kept
      const reopened = (await store.getCampaign('c-idem'))!;
      assert.deepEqual([reopened.status, reopened.endedAt, reopened.startedAt, reopened.reportPath], ['running', null, '2026-01-01T00:00:00.000Z', 's3://b/p/campaigns/c-idem/report.html']);
      assert.equal((await store.campaignRuns('c-idem')).length, 2);
    });

    test('bad writes are BadInputErrors naming what to fix', async () => {
      const { store } = b.make();
      await assert.rejects(store.recordRun(run({ campaignId: 'never-opened', task: 't1' })), (e: Error) => e instanceof BadInputError && /never-opened was never opened; call openCampaign/.test(e.message));
      await open(store, 'c-bad');
      await assert.rejects(store.recordRun({ ...run({ campaignId: 'c-bad', task: 't1' }), trial: 0 }), (e: Error) => e instanceof BadInputError && /trial/.test(e.message));
      await assert.rejects(store.closeCampaign('nope', 'failed'), (e: Error) => e instanceof BadInputError && /no campaign nope in the results store; known campaigns: c-bad/.test(e.message));
      await assert.rejects(requireCampaign(store, 'nope'), /no campaign nope in the results store; known campaigns: c-bad/);
    });

    test('the previous campaign: the same schedule first, completed and started before; else the same label', async () => {
      const { store } = b.make();
      const day = (d: number) => `2026-02-0${d}T00:00:00.000Z`;
      const end = (d: number) => day(d).replace('T00', 'T05');
      await open(store, 's1-a', { scheduleId: 's1', label: 'nightly' }, day(1));
      await store.closeCampaign('s1-a', 'completed', end(1));
      await open(store, 's1-b', { scheduleId: 's1', label: 'nightly' }, day(2));
      await store.closeCampaign('s1-b', 'failed', end(2)); // failed: never the baseline
      await open(store, 's2-a', { scheduleId: 's2', label: 'nightly' }, day(3));
      await store.closeCampaign('s2-a', 'completed', end(3)); // other schedule
      await open(store, 's1-c', { scheduleId: 's1', label: 'nightly' }, day(4));
      await store.closeCampaign('s1-c', 'completed', end(4));
      await open(store, 's1-d', { scheduleId: 's1', label: 'nightly' }, day(5)); // running now
      assert.equal((await store.previousCampaign('s1-d'))?.campaignId, 's1-c');
      assert.equal((await store.previousCampaign('s1-c'))?.campaignId, 's1-a');
      assert.equal(await store.previousCampaign('s1-a'), null);
      await open(store, 's3-a', { scheduleId: 's3', label: 'nightly' }, day(6)); // a new schedule: the label's latest
      assert.equal((await store.previousCampaign('s3-a'))?.campaignId, 's1-c');
      await open(store, 'adhoc', {}, day(7));
      assert.equal(await store.previousCampaign('adhoc'), null);
      assert.deepEqual((await store.listCampaigns()).map((c) => c.campaignId), ['adhoc', 's3-a', 's1-d', 's1-c', 's2-a', 's1-b', 's1-a'], 'newest first');
    });

    test('runs come back in (topic, task, model, framework, trial) order, and forgotten runs are gone', async () => {
      const { store } = b.make();
      await open(store, 'c-order');
      const specs = [
        { task: 'b', topic: 'vmc' }, { task: 'a', topic: 'vmc', trial: 2 }, { task: 'a', topic: 'vmc', trial: 1 },
        { task: 'z', topic: 'dmrg', model: 'scripted:m2' }, { task: 'z', topic: 'dmrg', framework: 'react' as const }, { task: 'z', topic: 'dmrg' },
      ];
      for (const s of specs) await store.recordRun(run({ campaignId: 'c-order', ...s }));
      const order = (await store.campaignRuns('c-order')).map((r) => `${r.topic}/${r.taskId}/${r.model}/${r.framework}/t${r.trial}`);
      assert.deepEqual(order, ['dmrg/z/scripted:m1/physvec/t1', 'dmrg/z/scripted:m1/react/t1', 'dmrg/z/scripted:m2/physvec/t1', 'vmc/a/scripted:m1/physvec/t1', 'vmc/a/scripted:m1/physvec/t2', 'vmc/b/scripted:m1/physvec/t1']);
      const gone = (await store.campaignRuns('c-order')).filter((r) => r.taskId === 'z').map((r) => r.key);
      await store.forgetRuns('c-order', gone);
      assert.deepEqual((await store.campaignRuns('c-order')).map((r) => r.taskId), ['a', 'a', 'b']);
    });

    test('two writers recording one campaign\'s runs at once lose none', async () => {
      const { store, other } = b.make();
      await open(store, 'c-two');
      const second = other();
      const recs = Array.from({ length: 40 }, (_, k) => run({ campaignId: 'c-two', task: `task_${String(k).padStart(2, '0')}`, m: { tokensIn: k } }));
      await Promise.all(recs.map((r, k) => (k % 2 ? second : store).recordRun(r)));
      assert.deepEqual(await store.recordedKeys('c-two'), recs.map((r) => r.key).sort());
      assert.deepEqual((await second.campaignRuns('c-two')).map((r) => r.metrics!.tokensIn), recs.map((_, k) => k));
    });
  });
}

test('bucket: a campaign record changed under a writer fails its conditional PUT, and the writer reapplies its change', async () => {
  const prefix = `results-${randomUUID().slice(0, 8)}`;
  const a = inBucket(prefix);
  const b = inBucket(prefix);
  await open(a, 'c-race', {}, '2026-03-01T00:00:00.000Z');
  // A reads the record; before A writes, B closes the campaign. A's write names the ETag it read: refused.
  const objects = (a as unknown as { objects: { readVersioned: (k: string) => Promise<unknown>; writeIf: (k: string, body: Buffer, etag: string | null) => Promise<boolean> } }).objects;
  const writes: boolean[] = [];
  const write = objects.writeIf.bind(objects);
  let interleaved = false;
  objects.writeIf = async (k, body, etag) => {
    if (!interleaved) {
      interleaved = true;
      await b.closeCampaign('c-race', 'completed', '2026-03-01T05:00:00.000Z');
    }
    const ok = await write(k, body, etag);
    writes.push(ok);
    return ok;
  };
  await a.setReportPath('c-race', 's3://b/p/campaigns/c-race/report.html');
  assert.deepEqual(writes, [false, true], 'the first write (on the stale version) was refused, the second (on the new one) taken');
  const rec = (await b.getCampaign('c-race'))!;
  assert.deepEqual([rec.status, rec.endedAt, rec.reportPath], ['completed', '2026-03-01T05:00:00.000Z', 's3://b/p/campaigns/c-race/report.html'], 'both changes stay');
});
