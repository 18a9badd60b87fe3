// QMP-Bench's task_dft_qc_1_1 (read from ../shared/qmp-bench as published) reproduced with --toolchain
// pyscf and a hand-written scripted Author: the Author's prompt carries the article's ORCA protocol and
// the ORCA → PySCF translation table, and the report's first line names the substitution. The run is
// paused after the Author and stopped there (the cassette has no verifier answers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { createWorkers } from '../../workers/create-workers.js';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { qmpBenchRoot, repoRoot } from '../../lib/paths.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { LlmRequest } from '../../schemas/llm.js';
import type { ReproductionInput } from '../../schemas/pipeline.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';
import type { ReproductionProgress } from '../../workflows/reproduction/progress.js';
import { stopSignal } from '../../workflows/reproduction/progress.js';

const TASK = path.join(qmpBenchRoot, 'dft_qc', 'tasks', 'task_dft_qc_1_1.json');
const CASSETTE = path.join(repoRoot, 'tests/fixtures/cassettes/task_dft_qc_1_1.author.json');

test('task_dft_qc_1_1 with --toolchain pyscf: the Author gets the ORCA protocol and its PySCF translation; the report says so first', { timeout: 600_000 }, async (t) => {
  if (!existsSync(TASK)) return t.skip(`QMP-Bench dft_qc data not found at ${TASK}`);
  const address = await ensureServer();
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    const [orch, sim] = workers;
    const input: ReproductionInput = {
      taskFile: TASK,
      datasetRoot: qmpBenchRoot,
      toolchain: 'pyscf',
      models: { defaultModel: `scripted:${CASSETTE}`, roles: {} },
      pauseAfter: ['author'],
    };
    const handle = await client.workflow.start('reproduction', { workflowId: `test-dft-qc-author-${randomUUID().slice(0, 8)}`, taskQueue: taskQueues().orchestration, args: [input] });
    const result = (await orch!.runUntil(
      sim!.runUntil(
        (async () => {
          for (let i = 0; i < 600; i++) {
            const p = (await handle.query<ReproductionProgress>('progress').catch(() => undefined)) as ReproductionProgress | undefined;
            if (p?.status === 'paused') break;
            await new Promise((r) => setTimeout(r, 500));
          }
          await handle.signal(stopSignal, 'Author prompt captured');
          return handle.result();
        })(),
      ),
    )) as ReproductionResult;
    assert.equal(result.status, 'stopped', result.message);

    // The Author's prompts, as the workflow scheduled them (decoded from the history).
    const history = await handle.fetchHistory();
    const converter = client.options.loadedDataConverter.payloadConverter;
    const requests = (history.events ?? [])
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callLlm')
      .map((e) => LlmRequest.parse(converter.fromPayload(e.activityTaskScheduledEventAttributes!.input!.payloads![0]!)));
    const plan = requests.find((r) => r.key.role === 'author' && r.key.seq === 0);
    assert.ok(plan, `the Author was asked (calls: ${requests.map((r) => `${r.key.role}/${r.key.stage}/${r.key.seq}`).join(', ')})`);
    const store = new ArtifactStore();
    const parts: string[] = [];
    for (const m of plan.messages) {
      if (typeof m.content === 'string') parts.push(m.content);
      else for (const p of m.content) parts.push('artifact' in p ? await store.getText(p.artifact) : p.text);
    }
    const prompt = parts.join('\n');
    // The protocol, as published…
    assert.match(prompt, /The article's calculation protocol \(no TeX source was published\):/);
    assert.ok(prompt.includes('!BP86 def2-TZVP(-f) def2-TZVP/J ZORA COSMO RKS PAL4'), 'the geometry-optimisation input');
    assert.ok(prompt.includes('%rocis NRoots 20'), 'the DFT-ROCIS input');
    // …and the translation, keyword by keyword.
    assert.match(prompt, /## ORCA → PySCF translation of this protocol, item by item/);
    assert.match(prompt, /\| ZORA \| [^|]+ \| relativistic \| scalar-relativistic X2C: mf = dft\.RKS\(mol\)\.x2c\(\)/);
    assert.match(prompt, /\| BP86 \| geom_opt \| method \| mf = dft\.RKS\(mol\); mf\.xc = 'BP86'/);
    assert.match(prompt, /\| def2-TZVP\(-f\) \|.*\| nearest \|/);
    assert.match(prompt, /\| %rocis \| dft_rocis \| excited states \| — \| no equivalent \|/);
    assert.match(prompt, /\| %mrci \| sorci \| multireference \| — \| no equivalent \|/);
    assert.match(prompt, /You MUST use the Python package PySCF instead of ORCA/);
    assert.match(prompt, /followed by the ORCA → PySCF translation table \(\d+ items: \d+ equivalent, \d+ nearest, \d+ with no equivalent/);

    // The report: the substitution first, the table in it.
    const report = JSON.parse(readFileSync(result.report!.jsonPath, 'utf8'));
    assert.match(report.notices[0], /^Toolchain substitution: pyscf .*stands in for ORCA .*The article's ORCA protocol \(ja5b10819\.json, 4 calculations\) is translated keyword by keyword for PySCF/);
    assert.ok(report.task.protocol.rows.some((r: { orca: string; target: string }) => r.orca === 'ZORA' && /x2c/.test(r.target)));
    const html = readFileSync(result.report!.htmlPath, 'utf8');
    assert.match(html, /id="protocol-translation"/);
    assert.ok(html.indexOf('Toolchain substitution: pyscf') < html.indexOf('<h1>'), 'the substitution is the first line of the HTML report');
  } finally {
    await connection.close();
    await wconn.close();
  }
});
