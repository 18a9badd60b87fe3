// `physvec reproduce --size full --no-wait` on a DMRG task: the Author's first request names the
// task's full-size parameters (scaled.parameters.*.full), read back from the LLM activity's input
// in the workflow history; then the run is terminated. A default (scaled) run's request does not.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import type { Client, Connection } from '@temporalio/client';
import { repoRoot } from '../../lib/paths.js';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { spawnWorker, stopWorker, waitFor, type SpawnedWorker } from './drill-support.js';

const run = promisify(execFile);
const TASK = path.join(repoRoot, 'data', 'tasks', 'dmrg', 'task_dmrg_tezuka_1a.json');
const MODEL = 'scripted:task_dmrg_tezuka_1a';

let client: Client;
let connection: Connection;
let worker: SpawnedWorker;

before(async () => {
  await ensureServer();
  ({ client, connection } = await testClient());
  worker = spawnWorker('orchestration');
  await worker.ready;
});
after(async () => {
  await stopWorker(worker);
  await connection?.close();
});

/** The text of the first LLM call's input (the Author's plan prompt), once it is scheduled. */
async function firstLlmInput(workflowId: string): Promise<string> {
  const handle = client.workflow.getHandle(workflowId);
  return waitFor('the first LLM call', async () => {
    const history = await handle.fetchHistory();
    const ev = history.events?.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callLlm');
    const data = ev?.activityTaskScheduledEventAttributes?.input?.payloads?.[0]?.data;
    return data ? Buffer.from(data).toString('utf8') : undefined;
  }, 300_000, 500);
}

async function startNoWait(extra: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), 'reproduce', TASK, '--model', MODEL, '--no-wait', '--json', ...extra], { env: process.env, timeout: 120_000 });
  return (JSON.parse(stdout) as { workflowId: string; notes: string[] }).workflowId;
}

test('reproduce --size full --no-wait: the Author\'s request names the full-size parameters', { timeout: 600_000 }, async () => {
  const scaled = JSON.parse(readFileSync(TASK, 'utf8')).scaled.parameters as Record<string, { full: unknown; used: unknown }>;
  const full = await startNoWait(['--size', 'full']);
  const scaledRun = await startNoWait([]);
  try {
    const fullInput = await firstLlmInput(full);
    assert.match(fullInput, /Full-size run/);
    for (const [name, p] of Object.entries(scaled)) {
      assert.ok(fullInput.includes(`${name} = ${JSON.stringify(p.full)} (instead of ${JSON.stringify(p.used)})`), `the request names ${name}'s full value ${JSON.stringify(p.full)}`);
    }
    const scaledInput = await firstLlmInput(scaledRun);
    assert.doesNotMatch(scaledInput, /Full-size run/, 'a default run keeps the scaled request');
  } finally {
    for (const id of [full, scaledRun]) await client.workflow.getHandle(id).terminate('full-size test done').catch(() => undefined);
  }
});
