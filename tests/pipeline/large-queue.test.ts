// Full-size runs go to the large simulation queue, served by `physvec worker --queue large` (issue 16
// item 4): a whole scripted reproduction of the dimer pipeline task with `--size full` (a task without
// `scaled` is already full size, so only the queue changes), with no ordinary simulation worker
// polling. Every sandbox run is scheduled on the large queue and taken by the large worker, which
// announces its own limits from its environment; the run still passes.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import type { Client, Connection } from '@temporalio/client';
import { repoRoot } from '../../lib/paths.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { DIMER_MODEL, DIMER_TASK, spawnWorker, stopWorker, type SpawnedWorker } from './drill-support.js';

const run = promisify(execFile);
const SANDBOX_ACTIVITIES = new Set(['runJob', 'runScript']);

let client: Client;
let connection: Connection;
const workers: SpawnedWorker[] = [];

before(async () => {
  await ensureServer();
  ({ client, connection } = await testClient());
});
after(async () => {
  for (const w of workers) await stopWorker(w);
  await connection?.close();
});

test('reproduce --size full: every sandbox run is on the large queue, taken by the large worker', { timeout: 900_000 }, async () => {
  const orchestration = spawnWorker('orchestration');
  const large = spawnWorker('large', { PHYSVEC_LARGE_MEMORY_MB: '3072', PHYSVEC_LARGE_MAX_HOURS: '0.5', PHYSVEC_LARGE_SLOTS: '2' });
  workers.push(orchestration, large);
  let announced = '';
  large.proc.stdout!.on('data', (b: Buffer) => (announced += b.toString()));
  await Promise.all([orchestration.ready, large.ready]);

  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), 'reproduce', DIMER_TASK, '--model', DIMER_MODEL, '--size', 'full', '--no-wait', '--json'], { env: process.env, timeout: 120_000 });
  const { workflowId } = JSON.parse(stdout) as { workflowId: string };
  const handle = client.workflow.getHandle(workflowId);
  const result = (await handle.result()) as { status: string };
  assert.equal(result.status, 'passed', `the full-size dimer reproduction passes on the large queue (${JSON.stringify(result).slice(0, 400)})`);

  const events = (await handle.fetchHistory()).events ?? [];
  const scheduled = events.filter((e) => SANDBOX_ACTIVITIES.has(e.activityTaskScheduledEventAttributes?.activityType?.name ?? ''));
  assert.ok(scheduled.length >= 3, `the reproduction ran its sandbox jobs (${scheduled.length})`);
  const queues = new Set(scheduled.map((e) => e.activityTaskScheduledEventAttributes!.taskQueue?.name));
  assert.deepEqual([...queues], [taskQueues().large], 'every sandbox run was scheduled on the large queue');
  const scheduledIds = new Set(scheduled.map((e) => Number(e.eventId)));
  const starters = new Set(events.filter((e) => scheduledIds.has(Number(e.activityTaskStartedEventAttributes?.scheduledEventId ?? -1))).map((e) => e.activityTaskStartedEventAttributes!.identity ?? ''));
  assert.deepEqual([...starters].map((id) => id.split('@')[0]), [String(large.proc.pid)], `the large worker took them all (${[...starters].join(', ')})`);
  assert.match(announced, /each run up to 3072 MiB and 0.5 h.*2 at once/, `the large worker announces the queue's own memory limit: ${announced.slice(0, 600)}`);
});
