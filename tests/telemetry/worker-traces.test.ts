// Traces: with tracing on, a reproduction yields one trace — RunWorkflow → StartActivity → RunActivity
// (Temporal's OpenTelemetry interceptors, the workflow side compiled into the bundle) → physvec's
// LlmCall / SandboxRun spans with provider, model, role, tokens and exit code, wall time — linked
// parent to child. The traced bundle still replays every committed history. Spans go to an in-memory
// exporter (the OTLP and console exporters are the SDK's own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NativeConnection, Worker } from '@temporalio/worker';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { HISTORIES_DIR } from '../helpers/histories.js';
import { waitFor } from '../helpers/poll.js';
import { DIMER_MODEL, startRepro } from '../pipeline/drill-support.js';
import { createWorkers } from '../../workers/create-workers.js';
import { buildWorkflowBundle } from '../../workers/workflow-bundle.js';
import { startTracing, tracingWorkerParts } from '../../workers/telemetry/tracing.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';

const exporter = new InMemorySpanExporter();
startTracing(exporter);

/** The span's ancestors' names, nearest first. */
function ancestry(span: ReadableSpan, byId: Map<string, ReadableSpan>): string[] {
  const out: string[] = [];
  for (let p = span.parentSpanId ? byId.get(span.parentSpanId) : undefined; p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) out.push(p.name);
  return out;
}

test('a traced reproduction links workflow, activity, LLM-call and sandbox-run spans; the traced bundle replays old histories', { timeout: 900_000 }, async (t) => {
  const address = await ensureServer();
  const bundle = await buildWorkflowBundle(true);
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const [orch, sim] = await createWorkers(wconn, 'default', 'all', { workflowBundle: bundle });
  let result: ReproductionResult;
  let workflowId: string;
  try {
    const handle = await startRepro(client, { model: DIMER_MODEL });
    workflowId = handle.workflowId;
    result = (await orch!.runUntil(sim!.runUntil(handle.result()))) as ReproductionResult;
  } finally {
    await connection.close();
    await wconn.close();
  }
  assert.equal(result.status, 'passed', result.message);

  const spans = await waitFor('the workflow span', async () => {
    const all = exporter.getFinishedSpans();
    return all.some((s) => s.name === 'RunWorkflow:reproduction' && s.attributes.workflowId === workflowId) ? all : undefined;
  }, 30_000, 200);
  const root = spans.find((s) => s.name === 'RunWorkflow:reproduction' && s.attributes.workflowId === workflowId)!;
  const trace = spans.filter((s) => s.spanContext().traceId === root.spanContext().traceId);
  const byId = new Map(trace.map((s) => [s.spanContext().spanId, s]));
  t.diagnostic(`${trace.length} spans in the run's trace: ${[...new Set(trace.map((s) => s.name.split(':')[0]))].join(', ')}`);

  const llm = trace.filter((s) => s.name.startsWith('LlmCall:'));
  assert.ok(llm.length >= 4, `LLM-call spans in the trace: ${llm.length}`);
  for (const s of llm) {
    assert.deepEqual(ancestry(s, byId).slice(0, 2), ['RunActivity:callLlm', 'StartActivity:callLlm'], `${s.name}'s parents`);
    assert.ok(ancestry(s, byId).includes('RunWorkflow:reproduction'), `${s.name} reaches the workflow span`);
    assert.equal(s.attributes['gen_ai.system'], 'scripted');
    assert.equal(s.attributes['gen_ai.request.model'], DIMER_MODEL);
    assert.equal(s.attributes['physvec.llm.outcome'], 'ok');
    assert.equal(typeof s.attributes['gen_ai.usage.input_tokens'], 'number');
  }
  assert.ok(llm.some((s) => s.attributes['physvec.llm.role'] === 'coder'), 'the coder call is traced');

  const runs = trace.filter((s) => s.name.startsWith('SandboxRun:'));
  assert.ok(runs.length >= 3, `sandbox-run spans in the trace: ${runs.length}`);
  for (const s of runs) {
    const parents = ancestry(s, byId);
    assert.match(parents[0] ?? '', /^RunActivity:/, `${s.name} is a child of an activity span (${parents.join(' < ')})`);
    assert.ok(parents.includes('RunWorkflow:reproduction'), `${s.name} reaches the workflow span`);
    assert.equal(s.attributes['physvec.sandbox.language'], 'python');
    assert.equal(typeof s.attributes['physvec.sandbox.exit_code'], 'number');
    assert.ok(Number(s.attributes['physvec.sandbox.wall_ms']) > 0);
  }
  assert.ok(runs.some((s) => s.attributes['physvec.sandbox.outcome'] === 'ok' && s.attributes['physvec.sandbox.exit_code'] === 0));

  // The traced bundle against every committed history (workflows in flight when tracing is switched on);
  // a replayer registers the span sink too (else the SDK logs an error per workflow task) and exports nothing.
  const before = exporter.getFinishedSpans().length;
  let replayed = 0;
  for (const build of readdirSync(HISTORIES_DIR)) {
    for (const f of readdirSync(path.join(HISTORIES_DIR, build)).filter((x) => x.endsWith('.json'))) {
      await Worker.runReplayHistory({ workflowBundle: bundle, sinks: tracingWorkerParts().sinks }, JSON.parse(readFileSync(path.join(HISTORIES_DIR, build, f), 'utf8')), `${build}/${f}`);
      replayed++;
    }
  }
  assert.ok(replayed >= 2, `replayed ${replayed}`);
  assert.equal(exporter.getFinishedSpans().length, before, 'replay exports no spans');
});
