// Shared by the framework tests: run PhysVEC (the reproduction), ReAct, ReAct-RAG and 1-shot on one
// task with its campaign cassettes (trial 1: two programming faults + a physics fault; trial 2: a
// correct Author), on the real dev server with the production workers, and check every RunMetrics
// value the scenario implies — tokens exactly the sums of the cassette entries each run consumed.
import assert from 'node:assert/strict';
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { createWorkers } from '../../workers/create-workers.js';
import { repoRoot } from '../../lib/paths.js';
import { kbDir } from '../../lib/kb/paths.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { SA } from '../../temporal-config/search-attributes.js';
import { RunMetrics, type BaselineInput } from '../../schemas/campaign.js';
import { findEntry, loadCassette, resolveCassettePath } from '../../activities/llm/cassette.js';
import type { BaselineResult } from '../../workflows/baselines/types.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';

export interface TaskScenario {
  taskId: string;
  taskFile: string;
  /** The task has a rubric (graded twice per pass) and convergence cases (one writer call each). */
  rubric: boolean;
  convergenceCases: number;
  assertions: number;
  /** 1-shot's accuracies on the faulty Author script (the "before" markers). */
  oneShotAccuracy: { unit: number; integration: number } | 'below-one';
}

type Key = [role: string, stage: string, iteration: number, seq?: number];

/**
 * A state directory of a test run builds its own knowledge base at worker start (about a minute of
 * CPU). When this checkout already has one (`data/state/kb`, e.g. after `npm run demo`), start from
 * a copy: the retrieve tool is the same, the test is faster.
 */
function reuseBuiltKnowledgeBase(): void {
  const built = path.join(repoRoot, 'data', 'state', 'kb');
  const mine = kbDir();
  if (path.resolve(mine) === path.resolve(built)) return;
  if (!existsSync(path.join(mine, 'manifest.json')) && existsSync(path.join(built, 'manifest.json'))) cpSync(built, mine, { recursive: true });
}

export async function runScenario(s: TaskScenario): Promise<void> {
  const model = (trial: number) => `scripted:campaign/${s.taskId}.t${trial}`;
  const spend = (trial: number, keys: Key[]) => {
    const cassette = loadCassette(resolveCassettePath(`campaign/${s.taskId}.t${trial}`));
    const out = { tokensIn: 0, tokensOut: 0, toolCalls: 0, llmCalls: keys.length };
    for (const [role, stage, iteration, seq = 0] of keys) {
      const e = findEntry(cassette, { role, stage, iteration, seq });
      assert.ok(e, `the cassette of trial ${trial} has an entry for ${role}/${stage}/${iteration}/${seq}`);
      assert.ok((e.usage?.inputTokens ?? 0) > 0 && (e.usage?.outputTokens ?? 0) > 0, `${role}/${stage}/${iteration}: realistic non-zero usage`);
      out.tokensIn += e.usage!.inputTokens;
      out.tokensOut += e.usage!.outputTokens;
      out.toolCalls += (e.rounds ?? []).reduce((n, r) => n + r.toolCalls.length, 0);
    }
    return out;
  };
  const checkSpend = (m: RunMetrics, expected: ReturnType<typeof spend>, what: string) => {
    assert.deepEqual({ tokensIn: m.tokensIn, tokensOut: m.tokensOut, toolCalls: m.toolCalls, llmCalls: m.llmCalls }, expected, `${what}: T_i, T_o, T_c and calls are the sums over the cassette entries it used`);
    assert.equal(m.costUsd, 0, `${what}: the scripted model costs nothing`);
  };
  // The calls each framework makes, per pass.
  const author: Key[] = [['author', 'author', 0, 0], ['author', 'author', 0, 1], ['coder', 'author', 0]];
  const rubric = (stage: string, it: number): Key[] => (s.rubric ? [0, 1].flatMap((k) => [['rubric-grader', stage, it, k], ['rubric-consistency', stage, it, k]] as Key[]) : []);
  const science = (stage: string, it: number): Key[] => [...rubric(stage, it), ['assertion-writer', stage, it]];
  const convergence: Key[] = Array.from({ length: s.convergenceCases }, (_, i) => ['convergence-writer', 'convergence', i + 1] as Key);
  const scoring = (trial: number, executable: boolean) => ({ ...spend(trial, [['unit-test-writer', 'evaluation', 1], ...(executable ? science('evaluation', 1) : [])]), costUsd: 0 });

  reuseBuiltKnowledgeBase();
  const address = await ensureServer();
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  const stamp = Date.now();
  try {
    const [orch, sim] = workers;
    await orch!.runUntil(sim!.runUntil((async () => {
      const start = (type: string, tag: string, input: object) =>
        client.workflow.start(type, { taskQueue: taskQueues().orchestration, workflowId: `test-${s.taskId}-${tag}-${stamp}`, args: [input] });
      const base = (trial: number): BaselineInput => ({ taskFile: s.taskFile, models: { defaultModel: model(trial), roles: {} } });
      const handles = await Promise.all([1, 2].flatMap((trial) => [
        start('reproduction', `physvec-t${trial}`, { taskFile: s.taskFile, models: { defaultModel: model(trial), roles: {} } }),
        start('reactBaseline', `react-t${trial}`, { ...base(trial), rag: false }),
        start('reactBaseline', `react-rag-t${trial}`, { ...base(trial), rag: true }),
        start('oneShotBaseline', `1-shot-t${trial}`, base(trial)),
      ]));
      const results = (await Promise.all(handles.map((h) => h.result()))) as (ReproductionResult | BaselineResult)[];
      for (const r of results) {
        RunMetrics.parse(r.runMetrics); // the shared contract, exactly
        assert.equal(r.runMetrics.scripted, true);
        assert.ok(r.runMetrics.wallMs > 0);
        assert.ok(r.runMetrics.reportPath && existsSync(r.runMetrics.reportPath), `${r.workflowId}: an evidence report`);
      }
      const [physvec1, react1, rag1, oneShot1, physvec2, react2, rag2, oneShot2] = results.map((r) => r.runMetrics) as RunMetrics[];
      const shape = (m: RunMetrics) => ({
        status: m.status, executable: m.executable, at: m.executableAtIteration, iterations: m.iterations, unit: m.unitAccuracy, integration: m.integrationAccuracy,
        completed: m.scientificCompleted, sciAt: m.scientificIteration, passed: m.assertionsPassed, total: m.assertionsTotal,
      });

      // ---- trial 1 ------------------------------------------------------------------------------
      assert.equal(physvec1!.framework, 'physvec');
      assert.deepEqual(
        shape(physvec1!),
        { status: 'passed', executable: true, at: 2, iterations: 2, unit: 1, integration: 1, completed: true, sciAt: 2, passed: s.assertions, total: s.assertions },
        `PhysVEC: both programming faults fixed in one repair, the physics fault by the scientific verifier (${physvec1!.message})`,
      );
      checkSpend(physvec1!, spend(1, [
        ...author,
        ['unit-test-writer', 'programming', 1], ['repairer', 'programming', 1], ['unit-test-writer', 'programming', 2],
        ...science('scientific', 1), ['repairer', 'scientific', 1], ...science('scientific', 2),
        ...convergence,
      ]), 'physvec t1');
      assert.equal(physvec1!.scoring, undefined, 'PhysVEC has no separate scoring pass');

      for (const [m, framework] of [[react1!, 'react'], [rag1!, 'react-rag']] as const) {
        assert.equal(m.framework, framework);
        const s1 = shape(m);
        assert.ok(s1.passed < s.assertions, `${framework}: the physics fault fails an assertion`);
        assert.deepEqual(
          { ...s1, passed: 'some fail' },
          { status: 'failed', executable: true, at: 3, iterations: 3, unit: 1, integration: 1, completed: false, sciAt: null, passed: 'some fail', total: s.assertions },
          `${framework}: one runtime error per iteration, the physics fault survives (${m.message})`,
        );
        checkSpend(m, spend(1, [['coder', 'author', 0], ['react-repairer', framework, 1], ['react-repairer', framework, 2]]), `${framework} t1`);
        assert.deepEqual(m.scoring, scoring(1, true), `${framework}: the scoring pass is counted apart`);
      }
      assert.equal(react1!.toolCalls, 0, 'ReAct retrieves nothing');
      assert.ok(rag1!.toolCalls > 0, 'ReAct-RAG retrieves in its repairs');

      assert.equal(oneShot1!.framework, '1-shot');
      const o1 = shape(oneShot1!);
      if (s.oneShotAccuracy === 'below-one') assert.ok(o1.unit! < 1 && o1.integration! < 1, `1-shot accuracies below 1: ${o1.unit}, ${o1.integration}`);
      assert.deepEqual(
        { ...o1, ...(s.oneShotAccuracy === 'below-one' ? { unit: 'below-one', integration: 'below-one' } : {}) },
        {
          status: 'failed', executable: false, at: null, iterations: 1,
          unit: s.oneShotAccuracy === 'below-one' ? 'below-one' : s.oneShotAccuracy.unit,
          integration: s.oneShotAccuracy === 'below-one' ? 'below-one' : s.oneShotAccuracy.integration,
          completed: false, sciAt: null, passed: 0, total: s.assertions,
        },
        "1-shot: the Author's script as is",
      );
      checkSpend(oneShot1!, spend(1, author), '1-shot t1');
      assert.deepEqual(oneShot1!.scoring, scoring(1, false), '1-shot t1: a script that does not run gets no scientific pass');
      assert.ok(oneShot1!.toolCalls > 0, "1-shot is PhysVEC's Author, who retrieves documentation");

      // ---- trial 2: a correct Author --------------------------------------------------------------
      for (const m of [physvec2!, react2!, rag2!, oneShot2!]) {
        const s2 = shape(m);
        assert.deepEqual(
          { executable: s2.executable, at: s2.at, iterations: s2.iterations, completed: s2.completed, unit: s2.unit, integration: s2.integration, passed: s2.passed },
          { executable: true, at: 1, iterations: 1, completed: true, unit: 1, integration: 1, passed: s.assertions },
          `${m.framework} t2: ${m.message}`,
        );
      }
      assert.equal(physvec2!.scientificIteration, 1);
      checkSpend(physvec2!, spend(2, [...author, ['unit-test-writer', 'programming', 1], ...science('scientific', 1), ...convergence]), 'physvec t2');
      checkSpend(react2!, spend(2, [['coder', 'author', 0]]), 'react t2');
      checkSpend(rag2!, spend(2, [['coder', 'author', 0]]), 'react-rag t2 (no repair, so no retrieval)');
      assert.equal(rag2!.toolCalls, 0);
      checkSpend(oneShot2!, spend(2, author), '1-shot t2');
      for (const m of [react2!, rag2!, oneShot2!]) assert.deepEqual(m.scoring, scoring(2, true), `${m.framework} t2 scoring`);

      // The Framework search attribute is set by the baseline itself (a campaign also sets it at start).
      const described = await client.workflow.getHandle(results[2]!.workflowId).describe();
      assert.equal(described.typedSearchAttributes.get(SA.Framework), 'react-rag');
    })()));
  } finally {
    await connection.close();
    await wconn.close();
  }
}
