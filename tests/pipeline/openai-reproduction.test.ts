// A reproduction driven by the real `openai` SDK against a loopback server that speaks the OpenAI
// wire format: the token totals the server reported are summed exactly, and the same totals appear
// in the workflow's progress query, in `physvec status <id> --json` and in the evidence report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { startFakeOpenAI, chatReply } from '../helpers/fake-openai-server.js';
import type { ReceivedRequest } from '../helpers/fake-llm-http.js';
import { createWorkers } from '../../workers/create-workers.js';
import { startReproduction } from '../../cli/runs/reproduction-run.js';
import { exportCassette } from '../../cli/cassettes/export.js';
import { artifactStore } from '../../lib/artifacts/store.js';
import { repoRoot } from '../../lib/paths.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';
import type { ReproductionProgress } from '../../workflows/reproduction/progress.js';
import { saveEnv } from '../helpers/env.js';

const TASK = path.join(repoRoot, 'data/tasks/smoke/task_smoke_dimer_pipeline.json');
// The answers the loopback server gives, by the structured-output schema each request names: the
// same hand-written exchanges as the scripted cassette of this task.
const CASSETTE = JSON.parse(readFileSync(path.join(repoRoot, 'data/cassettes/task_smoke_dimer_pipeline.json'), 'utf8')) as { entries: { role: string; json: unknown }[] };
const SCHEMA_OF: Record<string, string[]> = { author: ['author-plan', 'query-summary'], coder: ['script'], 'unit-test-writer': ['unit-entries'], 'assertion-writer': ['variant-mains'] };
const ANSWERS: Record<string, unknown> = {};
const seen: Record<string, number> = {};
for (const e of CASSETTE.entries) {
  const k = seen[e.role] ?? 0;
  seen[e.role] = k + 1;
  ANSWERS[SCHEMA_OF[e.role]![k]!] = e.json;
}

test('token totals from a real SDK match in the query, `status` and the report', { timeout: 900_000 }, async () => {
  const address = await ensureServer();
  const fake = await startFakeOpenAI({ apiKey: 'sk-loopback' });
  let n = 0;
  let toolCallsServed = 0;
  const reply = (req: ReceivedRequest) => {
    n++;
    const usage = { prompt: 1000 + 7 * n, completion: 100 + 3 * n, cached: n % 2 ? 64 : 0 };
    const schema = req.body.response_format?.json_schema?.name as string;
    const sawTool = (req.body.messages as { role: string }[]).some((m) => m.role === 'tool');
    if (schema === 'query-summary' && !sawTool) toolCallsServed++;
    if (schema === 'query-summary' && !sawTool) return chatReply({ toolCalls: [{ name: 'retrieve', args: { query: 'numpy eigvalsh', toolchain: 'tenpy' } }], usage });
    const answer = ANSWERS[schema];
    if (!answer) return chatReply({ content: `{"error": "no scripted answer for ${schema}"}`, usage });
    return chatReply({ content: JSON.stringify(answer), usage });
  };
  for (let i = 0; i < 40; i++) fake.enqueue(reply);
  const restoreEnv = saveEnv('OPENAI_API_KEY', 'OPENAI_BASE_URL');
  process.env.OPENAI_API_KEY = 'sk-loopback';
  process.env.OPENAI_BASE_URL = fake.baseUrl;
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    const started = await startReproduction(client, TASK, { model: 'openai:gpt-4o-mini' });
    const [orch, sim] = workers;
    // A query to a closed workflow is answered by a worker replaying it: keep the workers up for it.
    const { result, progress, status, replay } = await orch!.runUntil(sim!.runUntil((async () => {
      const result = (await started.handle.result()) as ReproductionResult;
      const progress = await started.handle.query<ReproductionProgress>('progress');
      const status = JSON.parse((await execa(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), 'status', started.workflowId, '--json'], { env: process.env })).stdout);
      // Export the run as a cassette and replay it with the scripted model.
      const cassetteFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-cassette-')), 'recorded.json');
      writeFileSync(cassetteFile, JSON.stringify(await exportCassette(client, started.workflowId, { store: artifactStore() })));
      const again = await startReproduction(client, TASK, { model: `scripted:${cassetteFile}` });
      const replay = (await again.handle.result()) as ReproductionResult;
      return { result, progress, status, replay };
    })()));
    assert.equal(result.status, 'passed', `${result.status}: ${result.message}`);
    assert.equal(result.scripted, false);

    // What the server billed, summed by hand from its own responses.
    const billed = { input: 0, output: 0, cached: 0 };
    for (let i = 1; i <= fake.requests.length; i++) {
      billed.input += 1000 + 7 * i;
      billed.output += 100 + 3 * i;
      billed.cached += i % 2 ? 64 : 0;
    }
    assert.ok(fake.requests.length >= 6, `the pipeline made ${fake.requests.length} HTTP calls`);
    const report = JSON.parse(readFileSync(result.report!.jsonPath, 'utf8'));
    for (const [where, t] of [['query', progress.tokens], ['status', status.result.tokens], ['report', report.tokens], ['result', result.tokens]] as const) {
      assert.equal(t.inputTokens, billed.input, `${where}: input tokens`);
      assert.equal(t.outputTokens, billed.output, `${where}: output tokens`);
      assert.equal(t.cachedInputTokens, billed.cached, `${where}: cached input tokens`);
      assert.equal(t.toolCalls, toolCallsServed, `${where}: tool calls`);
    }
    assert.ok(report.tokens.costUsd > 0, 'priced from the config price table');
    assert.ok(!report.notices.some((x: string) => /scripted/.test(x)), 'a real-provider run is not labelled scripted');

    // The exported cassette replays to the same final artifacts, at zero cost, labelled scripted.
    assert.equal(replay.status, 'passed');
    assert.equal(replay.scripted, true);
    assert.equal(replay.finalScriptRef?.sha256, result.finalScriptRef?.sha256, 'same final script');
    assert.equal(replay.figureRef?.sha256, result.figureRef?.sha256, 'same figure');
    const replayReport = JSON.parse(readFileSync(replay.report!.jsonPath, 'utf8'));
    assert.deepEqual(replayReport.finalRun.results, report.finalRun.results, 'same final numbers');
    assert.deepEqual(replayReport.scientific.at(-1).assertions.map((a: { judge: string }) => a.judge), report.scientific.at(-1).assertions.map((a: { judge: string }) => a.judge));
    assert.equal(replay.tokens.inputTokens, result.tokens.inputTokens, 'recorded usage is replayed');
    assert.equal(replay.tokens.costUsd, 0, 'a replay costs nothing');
    assert.ok(replayReport.notices.some((x: string) => /scripted model/.test(x)));
  } finally {
    restoreEnv();
    await connection.close();
    await wconn.close();
    await fake.close();
  }
});
