// A person in the loop: pause after a stage, replace the script with an edited one, approve, resume;
// and stop a run. Every intervention is recorded in the evidence report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { createWorkers } from '../../workers/create-workers.js';
import { startReproduction } from '../../cli/runs/reproduction-run.js';
import { repoRoot } from '../../lib/paths.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';
import type { ReproductionProgress } from '../../workflows/reproduction/progress.js';
import { approveSignal, replaceScriptUpdate, resumeSignal, stopSignal } from '../../workflows/reproduction/progress.js';

const TASK = path.join(repoRoot, 'data/tasks/smoke/task_smoke_dimer_pipeline.json');
const MODEL = 'scripted:task_smoke_dimer_pipeline';

async function waitFor(handle: { query: (q: string) => Promise<unknown> }, pred: (p: ReproductionProgress) => boolean): Promise<ReproductionProgress> {
  for (let i = 0; i < 600; i++) {
    const p = (await handle.query('progress').catch(() => undefined)) as ReproductionProgress | undefined;
    if (p && pred(p)) return p;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('condition not reached');
}

test('pause, replace the script, approve and resume; stop', { timeout: 900_000 }, async () => {
  const address = await ensureServer();
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    const [orch, sim] = workers;
    await orch!.runUntil(sim!.runUntil((async () => {
      // 1. Pause after the author stage, hand in an edited script, approve, resume.
      const a = await startReproduction(client, TASK, { model: MODEL, pauseAfter: ['author'] });
      await waitFor(a.handle, (p) => p.status === 'paused' && p.stage === 'author');
      const original = readFileSync(path.join(repoRoot, 'data/smoke/heisenberg_two_site.py'), 'utf8');
      const edited = original.replace('couplings = [0.5, 1.0, 1.5, 2.0]', 'couplings = [0.25, 0.5, 1.0, 1.5, 2.0]');
      assert.notEqual(edited, original);
      const rejected = await a.handle.executeUpdate(replaceScriptUpdate, { args: [{ script: 'print("no structure here")\n', note: 'a bad edit' }] });
      assert.equal(rejected.accepted, false, 'an unstructured script is refused with reasons');
      assert.ok(rejected.problems.length > 0);
      const accepted = await a.handle.executeUpdate(replaceScriptUpdate, { args: [{ script: edited, note: 'five couplings' }] });
      assert.deepEqual(accepted, { accepted: true, problems: [] });
      await a.handle.signal(approveSignal, 'plan looks right');
      await a.handle.signal(resumeSignal, 'go on');
      const ra = (await a.handle.result()) as ReproductionResult;
      assert.equal(ra.status, 'passed', ra.message);
      const reportA = JSON.parse(readFileSync(ra.report!.jsonPath, 'utf8'));
      assert.deepEqual(reportA.human.map((h: { kind: string }) => h.kind), ['replace-script', 'approve', 'resume']);
      assert.ok(readFileSync(path.join(path.dirname(ra.report!.jsonPath), 'final.py'), 'utf8').includes('0.25, 0.5'), 'the edited script is the one that ran');

      // 2. Stop a run that is paused: it ends cleanly as `stopped`, with a report.
      const b = await startReproduction(client, TASK, { model: MODEL, pauseAfter: ['author'] });
      await waitFor(b.handle, (p) => p.status === 'paused');
      await b.handle.signal(stopSignal, 'not needed');
      const rb = (await b.handle.result()) as ReproductionResult;
      assert.equal(rb.status, 'stopped');
      const reportB = JSON.parse(readFileSync(rb.report!.jsonPath, 'utf8'));
      assert.equal(reportB.human[0].kind, 'stop');
      assert.equal(reportB.human[0].note, 'not needed');
    })()));
  } finally {
    await connection.close();
    await wconn.close();
  }
});
