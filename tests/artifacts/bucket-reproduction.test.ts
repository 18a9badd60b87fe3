// A reproduction whose workers keep every artifact in a bucket on a real S3-compatible server
// (moto_server): the dimer pipeline task with its scripted model, end to end. Its scripts, figure and
// evidence report are objects in the bucket, and the worker's local artifacts directory holds nothing
// but its (empty) upload spool — the run went through the bucket, not a shared disk.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { startMoto, type Moto } from '../helpers/moto.js';
import { createWorkers } from '../../workers/create-workers.js';
import { artifactStore } from '../../lib/artifacts/store.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import { DIMER_MODEL, startRepro } from '../pipeline/drill-support.js';

let moto: Moto;
const spool = mkdtempSync(path.join(os.tmpdir(), 'physvec-spool-'));
before(async () => {
  moto = await startMoto();
  // Before anything asks for the process-wide store: this process is the bucket-backed worker.
  Object.assign(process.env, moto.env('repro'), { PHYSVEC_ARTIFACTS_DIR: spool });
});
after(async () => moto?.stop());

async function inBucket(ref: ArtifactRef): Promise<boolean> {
  const Key = `repro/${ref.sha256.slice(0, 2)}/${ref.sha256.slice(2)}`;
  return moto.client().send(new HeadObjectCommand({ Bucket: moto.bucket, Key })).then((o) => o.ContentLength === ref.bytes, () => false);
}

test('a reproduction with the artifact store in a bucket: scripts, figure and report are objects there', { timeout: 600_000 }, async () => {
  assert.equal(artifactStore().location, `s3://${moto.bucket}/repro`, 'the configured store is the bucket (PHYSVEC_ARTIFACTS_URL)');
  const address = await ensureServer();
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const [orch, sim] = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    const r = (await orch!.runUntil(sim!.runUntil(async () => (await startRepro(client, { model: DIMER_MODEL })).result()))) as ReproductionResult;
    assert.equal(r.status, 'passed', r.message);
    const refs: [string, ArtifactRef | undefined][] = [['final script', r.finalScriptRef], ['figure', r.figureRef], ['report.json', r.report?.jsonRef], ['report.html', r.report?.htmlRef]];
    for (const [what, ref] of refs) {
      assert.ok(ref, `${what}: the result names it`);
      assert.ok(await inBucket(ref), `${what} (${ref.sha256.slice(0, 12)}…) is an object in the bucket`);
    }
    // The report's folder was filled from the bucket: its figure is there, under its readable name.
    assert.ok(existsSync(r.report!.htmlPath));
    const local = readdirSync(spool).filter((e) => e !== '.incoming');
    assert.deepEqual(local, [], `nothing stored on the worker's disk (${spool})`);
    if (existsSync(path.join(spool, '.incoming'))) assert.deepEqual(readdirSync(path.join(spool, '.incoming')), [], 'the upload spool is empty');
  } finally {
    await wconn.close();
    await connection.close();
  }
});
