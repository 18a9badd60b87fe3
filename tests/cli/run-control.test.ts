// Ctrl-C and the verbs that steer a run (issue 24.6–7), against a real run on the dev server: the
// scripted-model smoke pipeline, paused by `--pause-after author` so it waits where the test needs it.
// - Ctrl-C (SIGINT to the process group of a foreground `reproduce`, its workers in that process)
//   leaves exactly one line on stderr naming the run and how to resume/stop it, no Python
//   traceback from the warm sandbox, and the run still RUNNING on the server;
// - `status` prints a human summary (task, stage, tokens, the way to continue), `--json` the document;
// - `approve` and `resume` are the human gates' signals; `stop` ends the run as `stopped`, with its report;
// - `demo` with an unreachable server exits with one line naming the address.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { createWorkers } from '../../workers/create-workers.js';
import { repoRoot } from '../../lib/paths.js';
import { SA } from '../../temporal-config/search-attributes.js';
import type { ReproductionProgress } from '../../workflows/reproduction/progress.js';
import { saveEnv } from '../helpers/env.js';
import { runCli, stackTraceLines } from './run-cli.js';

const TASK = path.join(repoRoot, 'data/tasks/smoke/task_smoke_dimer_pipeline.json');
const MODEL = 'scripted:task_smoke_dimer_pipeline';

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 300_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

test('Ctrl-C leaves one line and the run running; status summarises it; approve, stop', { timeout: 15 * 60_000 }, async (t) => {
  const address = await ensureServer();
  const { client, connection } = await testClient();
  t.after(() => connection.close());
  const dir = await mkdtemp(path.join(os.tmpdir(), 'physvec-run-control-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // Queues of this test's own: no other test's worker takes the run.
  const env = { PHYSVEC_QUEUE_PREFIX: `rc-${randomUUID().slice(0, 8)}`, PHYSVEC_STATE_DIR: path.join(dir, 'state'), TEMPORAL_ADDRESS: address };

  // 1. A foreground reproduce in a process group of its own (as a terminal's job), workers in it.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), 'reproduce', TASK, '--model', MODEL, '--pause-after', 'author', '--workers', 'in-process'], {
    cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  t.after(() => { if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL'); });
  const workflowId = await until('the workflow id', async () => /^workflow (\S+)/m.exec(stdout)?.[1]);
  const handle = client.workflow.getHandle(workflowId);
  t.after(() => handle.terminate('test done').catch(() => {}));
  await until('paused after the author stage', async () => ((await handle.query<ReproductionProgress>('progress')).status === 'paused' ? true : undefined));
  const before = stderr;
  process.kill(-child.pid!, 'SIGINT');
  const code = await exited;
  const added = stderr.slice(before.length).trim().split('\n').filter(Boolean);
  t.diagnostic(`after Ctrl-C (exit ${code}): ${added.join(' | ')}`);
  assert.equal(code, 130);
  assert.equal(added.length, 1, `exactly one line on stderr after Ctrl-C: ${JSON.stringify(added)}`);
  assert.match(added[0]!, new RegExp(`run ${workflowId} is still open on the server .*physvec worker.*physvec status ${workflowId} / physvec stop ${workflowId}`));
  assert.doesNotMatch(stdout + stderr, /KeyboardInterrupt|Traceback/);
  assert.deepEqual(stackTraceLines(stdout + stderr), []);
  assert.equal((await handle.describe()).status.name, 'RUNNING', 'the run is still running on the server');

  // 2. Workers elsewhere (here: this test process) take it over; status, approve, stop.
  // Same queues and state directory as the CLI's (the report is written where `physvec report` looks).
  t.after(saveEnv('PHYSVEC_QUEUE_PREFIX', 'PHYSVEC_STATE_DIR'));
  process.env.PHYSVEC_QUEUE_PREFIX = env.PHYSVEC_QUEUE_PREFIX;
  process.env.PHYSVEC_STATE_DIR = env.PHYSVEC_STATE_DIR;
  const wconn = await NativeConnection.connect({ address });
  const workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    const [orch, sim] = workers;
    await orch!.runUntil(sim!.runUntil((async () => {
      // The new workers have replayed the run (status queries with a 3 s deadline).
      await until('the new workers answer the progress query', () => handle.query<ReproductionProgress>('progress'));
      const status = await runCli(['status', workflowId], env);
      t.diagnostic(status.stdout);
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, new RegExp(`^${workflowId} \\(reproduction\\): RUNNING, PAUSED \\(continue: physvec resume ${workflowId}\\)`));
      assert.match(status.stdout, /^ {2}task {7}task_smoke_dimer_pipeline {3}model scripted:task_smoke_dimer_pipeline/m);
      assert.match(status.stdout, /^ {2}stage {6}author/m);
      assert.match(status.stdout, /^ {2}tokens {5}\d+ in, \d+ out, \d+ LLM calls/m);
      assert.match(status.stdout, /^ {2}started {4}\S+, running for \d/m);
      assert.ok(status.stdout.split('\n').length < 25, 'a summary, not the JSON document');
      const json = await runCli(['status', workflowId, '--json'], env);
      assert.equal(JSON.parse(json.stdout).progress.stage, 'author', '--json keeps the document');

      const approve = await runCli(['approve', workflowId, '--note', 'looks right'], env);
      assert.equal(approve.code, 0, approve.stderr);
      await until('the approval recorded', async () => ((await handle.query<ReproductionProgress>('progress')).human.some((h) => h.kind === 'approve' && h.note === 'looks right') ? true : undefined));

      const stop = await runCli(['stop', workflowId], env);
      t.diagnostic(stop.stdout);
      assert.equal(stop.code, 0, stop.stderr);
      assert.match(stop.stdout, new RegExp(`${workflowId} stopped: cancelled, verdict stopped`));
      const d = await handle.describe();
      assert.equal(d.status.name, 'CANCELLED');
      assert.equal(d.typedSearchAttributes.get(SA.Verdict), 'stopped');
      const report = await runCli(['report', workflowId], env);
      assert.match(report.stdout, new RegExp(`^${workflowId}: stopped \\(task_smoke_dimer_pipeline, stage reached`, 'm'), `the stopped run has its report: ${report.stderr}`);
      const again = await runCli(['cancel', workflowId], env);
      assert.match(again.stdout, /already closed \(cancelled, verdict stopped\): nothing to stop/);
    })()));
  } finally {
    await wconn.close();
  }
});

test('demo with an unreachable server exits with one line naming the address', { timeout: 120_000 }, async () => {
  const r = await runCli(['demo'], { TEMPORAL_ADDRESS: '127.0.0.1:1', PHYSVEC_CONNECT_TIMEOUT_MS: '1500' }, 100_000);
  assert.equal(r.code, 1);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, /^physvec: cannot reach the Temporal server at 127\.0\.0\.1:1 /);
});
