// Durability: kill -9 the worker process during the programming verifier and again during the
// scientific verifier, restart it, and the reproduction still completes — with exactly as many
// LLM-call activities in its history as an uninterrupted run (no finished call is repeated).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { startReproduction } from '../../cli/runs/reproduction-run.js';
import { DEMO_TASK, DEMO_MODEL } from '../../cli/runs/demo-run.js';
import { repoRoot } from '../../lib/paths.js';
import { latestHistory } from '../helpers/histories.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';

function startWorker(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), 'worker', '--queue', 'all'], {
    env: { ...process.env, PHYSVEC_LOG_LEVEL: 'ERROR' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function llmActivities(history: { events?: { activityTaskScheduledEventAttributes?: { activityType?: { name?: string | null } | null } | null }[] | null }): number {
  return (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callLlm').length;
}

test('killing the worker twice loses no finished LLM call or sandbox run', { timeout: 1_800_000 }, async () => {
  await ensureServer();
  const { client, connection } = await testClient();
  let worker = startWorker();
  try {
    const started = await startReproduction(client, DEMO_TASK, { model: DEMO_MODEL });
    const waitForStage = async (stage: string) => {
      for (;;) {
        const d = await started.handle.describe();
        if (d.searchAttributes.Stage?.[0] === stage) return;
        if (d.status.name !== 'RUNNING') throw new Error(`workflow ended (${d.status.name}) before stage ${stage}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    for (const stage of ['programming', 'scientific']) {
      await waitForStage(stage);
      await new Promise((r) => setTimeout(r, 3000)); // let sandbox runs get under way
      worker.kill('SIGKILL');
      await new Promise((r) => worker.once('exit', r));
      worker = startWorker();
    }
    const result = (await started.handle.result()) as ReproductionResult;
    assert.equal(result.status, 'passed', `${result.status}: ${result.message}`);
    const interrupted = llmActivities(await started.handle.fetchHistory());
    const reference = llmActivities(historyFromJSON(JSON.parse(readFileSync(latestHistory('demo-reproduction'), 'utf8'))) as never);
    assert.equal(interrupted, reference, 'the same number of LLM-call activities as the uninterrupted run');
  } finally {
    worker.kill('SIGKILL');
    await connection.close();
  }
});
