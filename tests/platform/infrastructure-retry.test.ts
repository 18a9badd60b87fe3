// An attempt failed for the infrastructure's sake (WorkerGone, TaskLost, WorkerShutdown, ChainLost:
// lib/temporal/infrastructure-retry.ts) is retried at once, not after the retry policy's backoff — on
// the real dev server, against a policy that waits 30 s between attempts. (A plain retryable failure
// would make the second attempt start 30 s or more after the first failed: the server's timer.)
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { Context } from '@temporalio/activity';
import { infrastructureRetry } from '../../lib/temporal/infrastructure-retry.js';
import { repoRoot } from '../../lib/paths.js';
import { POLICY_BACKOFF_MS, type RetryProbeActivities } from '../fixtures/workflows/retry-workflows.js';
import { testClient, uniqueQueue, withWorker } from '../helpers/temporal.js';

const workflowsPath = path.join(repoRoot, 'tests', 'fixtures', 'workflows', 'retry-workflows.ts');

test('an infrastructure failure is retried at once, not after the policy\'s 30 s backoff', { timeout: 120_000 }, async () => {
  const { client, connection } = await testClient();
  const taskQueue = uniqueQueue('infra-retry');
  let firstFailedAt = 0;
  const activities: RetryProbeActivities = {
    async failsOnce() {
      if (Context.current().info.attempt === 1) {
        firstFailedAt = Date.now();
        throw infrastructureRetry('the worker running this attempt is gone (test)', 'WorkerGone');
      }
      return { firstFailedAt, secondStartedAt: Date.now() };
    },
  };
  try {
    const r = await withWorker({ taskQueue, workflowsPath, activities }, () =>
      client.workflow.execute('retriedOnce', { taskQueue, workflowId: `infra-retry-${Date.now()}`, args: ['infrastructure'] }),
    );
    const gap = r.secondStartedAt - r.firstFailedAt;
    console.log(`# second attempt started ${gap} ms after the first failed (the policy's backoff: ${POLICY_BACKOFF_MS} ms)`);
    assert.ok(gap < POLICY_BACKOFF_MS * 0.66, `the retry waited ${gap} ms: the policy's backoff was applied`);
  } finally {
    await connection.close();
  }
});
