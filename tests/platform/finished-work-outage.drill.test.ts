// Drill (issue 26.4): a sandbox run that finishes while the Temporal server is down is not re-run.
// A dev server of our own is stopped while the smoke workflow's script runs; the script ends during
// the outage (its result cannot be reported), the server is started again on the same SQLite file,
// the server times the attempt out and schedules another, and the worker answers it with the result
// it stored before reporting (workers/rerun-journal.ts). Also counts the worker's log lines: core's
// retry warnings during the outage must be folded into its one-line notice.
// run-tests: mostly waits (alone, ~24 % of two cores: a server outage), so it also runs beside the CPU-bound files (scripts/run-tests.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { startDevServer, stopDevServer } from '../../lib/temporal/dev-server.js';
import { freePort } from '../../lib/net/free-port.js';
import { createWorkers, installRuntime } from '../../workers/create-workers.js';
import { workflowBundle } from '../../workers/workflow-bundle.js';
import { artifactStore } from '../../lib/artifacts/store.js';
import { createSandboxActivities } from '../../activities/sandbox/run-script.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { stateDir } from '../../lib/paths.js';
import { waitFor } from '../helpers/poll.js';
import type { SandboxRequestInput } from '../../schemas/sandbox.js';
import type { SmokeResult, smokeReproduction } from '../../workflows/smoke.js';

/** How long the script runs; the server is stopped right after it starts. */
const SCRIPT_SECONDS = 8;
/** Kept down this long after the result was stored: core stops retrying the completion well before. */
const DOWN_AFTER_STORED_MS = 25_000;

// The worker's own logger (workers/logger.ts), printing into this list as well as stderr.
const lines: string[] = [];
installRuntime({
  print: (l) => {
    lines.push(...l.split('\n'));
    process.stderr.write(`${l}\n`);
  },
});

const journalLines = () => {
  try {
    return readFileSync(path.join(stateDir(), 'worker', 'completions.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { key: string; result?: string; returned?: number });
  } catch {
    return [];
  }
};

test('a sandbox run that finishes while the server is down is returned from the store, not re-run', { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-outage-'));
  const server = { dir, port: await freePort(), uiPort: await freePort() };
  await startDevServer(server);
  const address = `127.0.0.1:${server.port}`;
  const store = artifactStore();
  const sandbox = createSandboxActivities(store);
  let runs = 0;
  const activities = { runScript: (req: SandboxRequestInput) => { runs++; return sandbox.runScript(req); } };

  const script = `import time\ntime.sleep(${SCRIPT_SECONDS})\nprint("ran once")\n`;
  const ref = await store.put(script, { name: 'main.py', mediaType: 'text/x-python' });
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const handle = await client.workflow.start<typeof smokeReproduction>('smokeReproduction', {
    workflowId: `outage-drill-${Date.now()}`,
    taskQueue: taskQueues().orchestration,
    args: [{ taskId: 'outage-drill', topic: 'dmrg', request: { language: 'python', entry: 'main.py', files: [{ path: 'main.py', ref }], timeoutMs: 120_000, label: 'outage-drill' } }],
  });
  const wconn = await NativeConnection.connect({ address });
  const workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle(), activities });
  const running = Promise.all(workers.map((w) => w.run()));
  const linesBefore = lines.length;
  try {
    await waitFor('the script to start', async () => (runs > 0 ? true : undefined), 120_000, 100);
    await stopDevServer(server);
    const down = Date.now();
    await waitFor('the result to be stored', async () => (journalLines().some((j) => j.result && j.key.startsWith(handle.workflowId)) ? true : undefined), 120_000, 250);
    await new Promise((r) => setTimeout(r, DOWN_AFTER_STORED_MS));
    await startDevServer(server); // the same SQLite file
    const outageMs = Date.now() - down;

    const result = (await handle.result()) as SmokeResult;
    assert.equal(result.status, 'passed');
    assert.match(result.run.stdoutTail, /ran once/);
    const mine = journalLines().filter((j) => j.key.startsWith(handle.workflowId));
    const stored = mine.filter((j) => j.result).length;
    const returned = mine.filter((j) => j.returned !== undefined).length;
    const logLines = lines.length - linesBefore;
    console.log(`\noutage drill: ${(outageMs / 1000).toFixed(0)} s outage | results stored ${stored} | re-runs avoided ${returned} | script runs ${runs} | worker log lines ${logLines}`);
    for (const l of lines.slice(linesBefore)) console.log(`  | ${l.slice(0, 200)}`);
    assert.equal(runs, 1, 'the script ran exactly once');
    assert.equal(returned, 1, 'the retried attempt returned the stored result');
    assert.ok(lines.slice(linesBefore).some((l) => /returned the result of attempt 1 stored at .*not re-run/.test(l)), 'the worker says what happened');
    assert.ok(logLines <= 6, `core's warnings during the outage are folded into one line (${logLines} lines)`);
  } finally {
    for (const w of workers) w.shutdown();
    await running.catch(() => undefined);
    await wconn.close();
    await connection.close();
    await stopDevServer(server);
  }
});
