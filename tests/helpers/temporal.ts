// Tests talk to a real Temporal server: the one scripts/run-tests.ts started (TEMPORAL_ADDRESS), or
// one started here when a test file is run on its own. Never a mock.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, Runtime, DefaultLogger, type WorkerOptions } from '@temporalio/worker';
import { startDevServer } from '../../lib/temporal/dev-server.js';

// Workers in tests log warnings and errors only; the runner's own output stays readable.
try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  /* already installed by an earlier import in this process */
}

let ensured: Promise<string> | undefined;
export function ensureServer(): Promise<string> {
  ensured ??= (async () => {
    if (process.env.TEMPORAL_ADDRESS) return process.env.TEMPORAL_ADDRESS;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-test-server-'));
    const info = await startDevServer({ dir, port: 17233, uiPort: 18233 });
    process.env.TEMPORAL_ADDRESS = info.address;
    process.env.PHYSVEC_UI_PORT = '18233';
    process.env.PHYSVEC_TEST_SERVER_DIR = dir;
    return info.address;
  })();
  return ensured;
}

export async function testClient(): Promise<{ client: Client; connection: Connection }> {
  const address = await ensureServer();
  const connection = await Connection.connect({ address });
  return { client: new Client({ connection, namespace: 'default' }), connection };
}

/** The production workflow bundle: the suite's prebuilt one (scripts/run-tests.ts), else built once per test process. */
import { workflowBundle } from '../../workers/workflow-bundle.js';
export { workflowBundle };

export function uniqueQueue(prefix = 'test'): string {
  return `${prefix}-${randomUUID()}`;
}

/** Run `fn` while a worker polls `taskQueue` with the given activities and the production workflows. */
export async function withWorker<T>(
  opts: Partial<WorkerOptions> & { taskQueue: string },
  fn: (worker: Worker) => Promise<T>,
): Promise<T> {
  const address = await ensureServer();
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace: 'default',
    workflowBundle: opts.workflowsPath ? undefined : await workflowBundle(),
    ...opts,
  });
  try {
    return await worker.runUntil(fn(worker));
  } finally {
    await connection.close();
  }
}
