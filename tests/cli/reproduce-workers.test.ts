// `reproduce` without a second terminal, and a failure inside the workflow reaching the terminal:
// - with no worker polling, `reproduce` runs its workers in its own process and says so; a cassette
//   that lacks the unit-test writer's answer passes the checks before the start (its first calls are
//   there) and fails in the programming stage — the one line names role, stage and iteration;
// - `--workers external` waits for workers started elsewhere and says that none is polling.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../lib/paths.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { testClient } from '../helpers/temporal.js';
import { TEZUKA } from './bad-input-corpus.js';
import { runCli, stackTraceLines } from './run-cli.js';

test('reproduce runs its workers in-process and a failure in the workflow is one line naming role, stage and iteration', { timeout: 10 * 60_000 }, async (t) => {
  await testClient().then(({ connection }) => connection.close());
  const dir = await mkdtemp(path.join(os.tmpdir(), 'physvec-repro-workers-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const cassette = JSON.parse(await readFile(path.join(repoRoot, 'data/cassettes/task_dmrg_tezuka_1a.json'), 'utf8'));
  cassette.entries = cassette.entries.filter((e: { role: string }) => e.role !== 'unit-test-writer');
  const file = path.join(dir, 'no-unit-test-writer.json');
  await writeFile(file, JSON.stringify(cassette));

  const r = await runCli(['reproduce', TEZUKA, '--model', `scripted:${file}`], { PHYSVEC_STATE_DIR: path.join(dir, 'state') }, 8 * 60_000);
  const all = `${r.stdout}\n${r.stderr}`;
  t.diagnostic(`reproduce exited ${r.code} after ${(r.ms / 1000).toFixed(1)} s; last lines: ${all.trim().split('\n').slice(-3).join(' / ')}`);
  assert.match(r.stdout, /^workflow repro-task_dmrg_tezuka_1a-/m, 'the workflow started (the first calls are in the cassette)');
  assert.match(all, /running both workers in this process|running that worker in this process/, 'says that it runs the workers itself');
  assert.match(all, /role "unit-test-writer", stage "programming", iteration 1/, 'the root cause names role, stage and iteration');
  assert.ok(r.code === 1 || r.code === 2, `exit ${r.code}`);
  assert.deepEqual(stackTraceLines(all), []);
});

test('reproduce --workers external says that no worker is polling, and keeps waiting', { timeout: 3 * 60_000 }, async (t) => {
  const { client, connection } = await testClient();
  t.after(() => connection.close());
  const dir = await mkdtemp(path.join(os.tmpdir(), 'physvec-repro-external-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), 'reproduce', TEZUKA, '--model', 'scripted:task_dmrg_tezuka_1a', '--workers', 'external'], {
    cwd: repoRoot,
    env: { ...process.env, PHYSVEC_STATE_DIR: path.join(dir, 'state') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const t0 = Date.now();
  const said = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 120_000);
    const check = () => {
      if (out.includes(`no worker is polling ${taskQueues().orchestration}`)) {
        clearTimeout(timer);
        resolve(true);
      }
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
  });
  const workflowId = /^workflow (\S+)/m.exec(out)?.[1];
  const stillWaiting = child.exitCode === null;
  child.kill('SIGKILL');
  if (workflowId) await client.workflow.getHandle(workflowId).terminate('test done').catch(() => {});
  t.diagnostic(`said it after ${((Date.now() - t0) / 1000).toFixed(1)} s (process start included): ${out.split('\n').find((l) => /no worker is polling/.test(l))}`);
  assert.ok(said, `no "none is polling" line: ${out}`);
  assert.ok(workflowId, 'printed the workflow id');
  assert.ok(stillWaiting, 'it keeps waiting for a worker');
  assert.deepEqual(stackTraceLines(out), []);
});
