// `physvec worker --traces otlp` sends its spans over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT: a
// loopback receiver stands in for a collector, a worker child process runs the smoke reproduction
// (one sandbox run) and, when stopped, flushes what it batched. The receiver finds the workflow span
// and the sandbox-run span under it, in one trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import path from 'node:path';
import getPort from 'get-port';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { spawnWorker } from '../helpers/worker-process.js';
import { waitFor } from '../helpers/poll.js';
import { startSmoke } from '../../cli/runs/smoke-run.js';
import { repoRoot } from '../../lib/paths.js';
import type { SmokeResult } from '../../workflows/smoke.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

test('--traces otlp exports workflow and sandbox-run spans to OTEL_EXPORTER_OTLP_ENDPOINT', { timeout: 600_000 }, async () => {
  await ensureServer();
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (b: Buffer) => (body += b.toString()));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const doc = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await getPort();
  await new Promise<void>((r) => receiver.listen(port, '127.0.0.1', r));
  const { proc, exited, output } = spawnWorker(['--queue', 'all', '--traces', 'otlp'], { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
  const { client, connection } = await testClient();
  try {
    // A traced worker bundles its workflows itself (with the tracing interceptors).
    await waitFor('the worker to poll', async () => (/polling/.test(output()) ? true : undefined), 300_000, 200);
    assert.match(output(), /traces to otlp/);
    const { handle, workflowId } = await startSmoke(client, path.join(repoRoot, 'data/tasks/smoke/task_smoke_heisenberg_dimer.json'));
    const result = (await handle.result()) as SmokeResult;
    assert.equal(result.status, 'passed');
    proc.kill('SIGTERM');
    await exited;
    const root = spans.find((s) => s.name === 'RunWorkflow:smokeReproduction' && s.attributes.some((a) => a.key === 'workflowId' && a.value.stringValue === workflowId));
    assert.ok(root, `the workflow span reached the receiver (got: ${[...new Set(spans.map((s) => s.name))].join(', ')}; requests: ${paths.slice(0, 3).join('; ')})`);
    const trace = spans.filter((s) => s.traceId === root.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const run = trace.find((s) => s.name.startsWith('SandboxRun:'));
    assert.ok(run, `a sandbox-run span in the workflow's trace (${trace.map((s) => s.name).join(', ')})`);
    const chain: string[] = [];
    for (let p = run.parentSpanId ? byId.get(run.parentSpanId) : undefined; p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) chain.push(p.name);
    assert.deepEqual(chain, ['RunActivity:runScript', 'StartActivity:runScript', 'RunWorkflow:smokeReproduction']);
    assert.ok(paths.every((p) => p.startsWith('POST /v1/traces')), paths.join('; '));
  } finally {
    if (proc.exitCode === null) proc.kill('SIGTERM');
    await exited;
    await connection.close();
    receiver.close();
  }
});
