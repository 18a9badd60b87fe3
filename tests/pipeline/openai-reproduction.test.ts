// A reproduction driven by the real `openai` SDK against a loopback server that speaks the OpenAI
// wire format: the token totals the server reported are summed exactly, and the same totals appear
// in the workflow's progress query, in `physvec status <id> --json` and in the evidence report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { startFakeOpenAI, chatReply } from '../helpers/fake-openai-server.js';
import type { ReceivedRequest } from '../helpers/fake-llm-http.js';
import { createWorkers } from '../../workers/create-workers.js';
import { startReproduction } from '../../cli/runs/reproduction-run.js';
import { repoRoot } from '../../lib/paths.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';
import type { ReproductionProgress } from '../../workflows/reproduction/progress.js';

const TASK = path.join(repoRoot, 'data/tasks/smoke/task_smoke_dimer_pipeline.json');
const SCRIPT = readFileSync(path.join(repoRoot, 'data/smoke/heisenberg_two_site.py'), 'utf8');

const ANSWERS: Record<string, unknown> = {
  'author-plan': { plan: 'Exact diagonalisation of the 4x4 dimer Hamiltonian for each J; plot E0(J).', queries: ['numpy eigvalsh'] },
  'query-summary': { summary: [{ query: 'numpy eigvalsh', answer: 'numpy.linalg.eigvalsh returns ascending eigenvalues of a Hermitian matrix.' }] },
  script: { script: SCRIPT, notes: 'numpy only' },
  'unit-entries': {
    entries: [
      { function: 'site_spin_half', main: 'def main():\n    ops = site_spin_half()\n    print(len(ops))\n' },
      { function: 'hamiltonian_heisenberg_dimer', main: 'def main():\n    sz = np.diag([0.5, -0.5])\n    print(hamiltonian_heisenberg_dimer([sz, sz, sz], 1.0).shape)\n' },
      { function: 'effector_exact_diagonalization', main: 'def main():\n    print(effector_exact_diagonalization(np.diag([1.0, -1.0]))[0])\n' },
      { function: 'observable_ground_energy', main: 'def main():\n    print(observable_ground_energy([-0.75, 0.25]))\n' },
      { function: 'plot_energy', main: 'def main():\n    plot_energy([1.0, 2.0], [-0.75, -1.5])\n' },
    ],
  },
  'variant-mains': { variants: [{ case: 'limiting:0', main: 'def main():\n    e = run_energy_vs_coupling([2.0])\n    print("PHYSVEC_RESULT %.12f" % e[0])\n' }] },
};

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
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  process.env.OPENAI_API_KEY = 'sk-loopback';
  process.env.OPENAI_BASE_URL = fake.baseUrl;
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    const started = await startReproduction(client, TASK, { model: 'openai:gpt-4o-mini' });
    const [orch, sim] = workers;
    // A query to a closed workflow is answered by a worker replaying it: keep the workers up for it.
    const { result, progress, status } = await orch!.runUntil(sim!.runUntil((async () => {
      const result = (await started.handle.result()) as ReproductionResult;
      const progress = await started.handle.query<ReproductionProgress>('progress');
      const status = JSON.parse((await execa(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), 'status', started.workflowId, '--json'], { env: process.env })).stdout);
      return { result, progress, status };
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
    for (const [where, t] of [['query', progress.tokens], ['status', status.progress.tokens], ['report', report.tokens], ['result', result.tokens]] as const) {
      assert.equal(t.inputTokens, billed.input, `${where}: input tokens`);
      assert.equal(t.outputTokens, billed.output, `${where}: output tokens`);
      assert.equal(t.cachedInputTokens, billed.cached, `${where}: cached input tokens`);
      assert.equal(t.toolCalls, toolCallsServed, `${where}: tool calls`);
    }
    assert.ok(report.tokens.costUsd > 0, 'priced from the config price table');
    assert.ok(!report.notices.some((x: string) => /scripted/.test(x)), 'a real-provider run is not labelled scripted');
  } finally {
    process.env.OPENAI_API_KEY = saved.key;
    process.env.OPENAI_BASE_URL = saved.url;
    if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
    if (saved.url === undefined) delete process.env.OPENAI_BASE_URL;
    await connection.close();
    await wconn.close();
    await fake.close();
  }
});
