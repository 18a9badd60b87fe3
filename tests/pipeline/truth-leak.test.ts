// The truth-leak guard over the whole suite: for every task of data/tasks, every prompt that goes to
// a script-writing role (author, coder, repairer, assertion writer, convergence writer) is built
// as the pipeline builds it, its artifacts resolved to text, and checked against the task's
// LimitingCases truths. Also: a leak planted in a digest stops prepare, naming the digest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { createPipelineActivities } from '../../activities/pipeline/index.js';
import * as AuthorPrompts from '../../workflows/agents/author-prompts.js';
import * as ProgrammingPrompts from '../../workflows/verifiers/programming-prompts.js';
import * as ScientificPrompts from '../../workflows/verifiers/scientific-prompts.js';
import * as ConvergencePrompts from '../../workflows/verifiers/convergence-prompts.js';
import { findTruthLeaks } from '../../lib/tasks/truth-leak.js';
import { assertNoTruthLeak } from '../../activities/pipeline/truth-leak-check.js';
import { repoRoot } from '../../lib/paths.js';
import type { LlmMessage } from '../../schemas/llm.js';
import type { ToolchainStatus } from '../../schemas/toolchain.js';
import type { AssertionVerdict, ProgrammingReport, TaskContext } from '../../schemas/pipeline.js';

/** Every prompt module of the agents (each lives beside its stage). */
const P = { ...AuthorPrompts, ...ProgrammingPrompts, ...ScientificPrompts, ...ConvergencePrompts };

const PROFILES = ['tenpy', 'netket', 'pyscf', 'qiskit', 'itensors'];
const store = new ArtifactStore(mkdtempSync(path.join(os.tmpdir(), 'physvec-leak-')));
// planSubstitution takes profile names as well as detection results: every profile counts as installed here.
const pipeline = createPipelineActivities({ store, toolchains: async () => PROFILES as unknown as ToolchainStatus[] });

async function promptText(messages: LlmMessage[]): Promise<string> {
  const parts: string[] = [];
  for (const m of messages) {
    if (typeof m.content === 'string') parts.push(m.content);
    else for (const c of m.content) parts.push('text' in c && c.text !== undefined ? c.text : 'artifact' in c && c.artifact ? await store.getText(c.artifact) : '');
  }
  return parts.join('\n');
}

/** Every script-writing prompt of a task, as the pipeline builds it (model answers stand in as neutral text). */
async function scriptWritingPrompts(ctx: TaskContext): Promise<{ role: string; messages: LlmMessage[] }[]> {
  const script = await store.put('def main():\n    pass\n', { name: 'main.py' });
  const report: ProgrammingReport = {
    iteration: 1, judge_result: [], run_functions: [], untested: [], unitAccuracy: 1, integrationAccuracy: 1, executable: true,
    reportRef: await store.putJson({ judge_result: [] }, 'report.json'),
  };
  const cases = [...ctx.limitingCases, ...ctx.scientificResults];
  // Every case failed: the repair prompt shows each one (content, variant main, output), never its truth.
  const failed: AssertionVerdict[] = cases.map((c) => ({ case: c.id, content: c.content, truth: c.truth, judge: 'wrong', method: 'numeric', observed: [0.123], reason: 'max relative error 1 vs tolerance 0.01', exitCode: 0 }));
  const localisation = cases.map((c) => ({ case: c.id, main: 'def main():\n    print(run_x())\n', output: 'PHYSVEC_RESULT 0.123', calls: ['hamiltonian_x'], passed: false }));
  const rubric = { available: false, grades: [], gradeMean: null, gradeStd: null, failed: [] };
  const plan = 'a plan';
  return [
    { role: 'author', messages: P.planPrompt(ctx) },
    { role: 'author', messages: P.querySummaryPrompt(ctx, plan, ['a query']) },
    { role: 'coder', messages: P.scriptPrompt(ctx, plan, '{}') },
    { role: 'coder', messages: P.scriptPrompt(ctx, plan, '{}', 'structure problem') },
    { role: 'repairer', messages: P.programmingRepairPrompt(script, report) },
    { role: 'assertion-writer', messages: P.variantsPrompt(script, cases.map((c) => ({ id: c.id, content: c.content })), ctx.language) },
    { role: 'repairer', messages: P.scientificRepairPrompt(script, rubric, failed, localisation) },
    ...ctx.convergenceCases.map((c) => ({ role: 'convergence-writer', messages: P.convergencePrompt(script, c) })),
  ];
}

function taskFiles(): string[] {
  const root = path.join(repoRoot, 'data/tasks');
  return readdirSync(root).flatMap((topic) => readdirSync(path.join(root, topic)).filter((f) => f.endsWith('.json')).map((f) => path.join(root, topic, f)));
}

test('no script-writing prompt of any task of the suite carries a limiting-case truth', { timeout: 300_000 }, async () => {
  const files = taskFiles();
  assert.ok(files.length >= 16, `the suite has ${files.length} tasks`);
  let prompts = 0;
  let cases = 0;
  const leaks: string[] = [];
  for (const file of files) {
    const ctx = await pipeline.prepareTask({ taskFile: file });
    cases += ctx.limitingCases.length;
    const article = ctx.sourceKind === 'tex' && ctx.sourceRef ? await store.getText(ctx.sourceRef) : undefined;
    for (const p of await scriptWritingPrompts(ctx)) {
      prompts++;
      const found = findTruthLeaks([{ file: `${path.basename(file)} ${p.role} prompt`, text: await promptText(p.messages) }], ctx.limitingCases, article, ctx.request);
      leaks.push(...found.map((l) => `${l.file}: ${l.case} ${l.kind} ${l.found}`));
    }
  }
  console.log(`truth-leak guard: ${prompts} script-writing prompts of ${files.length} tasks checked against ${cases} limiting-case truths, ${leaks.length} leaks`);
  assert.deepEqual(leaks, []);
});

test('a truth planted in a digest stops prepare with a message naming the digest', async () => {
  // What prepare checks (prepareTask calls assertNoTruthLeak on the same fields before any agent is asked).
  const task = JSON.parse(readFileSync(path.join(repoRoot, 'data/tasks/dft/task_dft_lih_b3lyp.json'), 'utf8'));
  const digest = path.join(repoRoot, 'data/papers/JPhysChemRefData.22.87.md');
  const limitingCases = (task.LimitingCases as { content: string; truth: string }[]).map((c, k) => ({ id: `limiting:${k}`, ...c }));
  const fields = { taskFile: 'task_dft_lih_b3lyp.json', request: task.User_requests, figure: task.subplot_name, limitingCases, scientificResults: [], convergenceCases: [] };
  assert.doesNotThrow(() => assertNoTruthLeak({ ...fields, source: { file: digest, text: readFileSync(digest, 'utf8'), kind: 'digest' } }));
  const planted = `${readFileSync(digest, 'utf8')}\nOur task: the expectation value of S^2 of the Li atom is 0.75.\n`;
  assert.throws(() => assertNoTruthLeak({ ...fields, source: { file: '/tmp/planted-digest.md', text: planted, kind: 'digest' } }), (err: Error) => {
    assert.match(err.message, /truth leak: .*planted-digest\.md carries the truth of limiting:0 \(its value 0\.75\)/);
    return true;
  });
  // The same number in the article's own TeX is the article's: not a leak.
  assert.doesNotThrow(() => assertNoTruthLeak({ ...fields, source: { file: 'source.tex', text: planted, kind: 'tex' } }));
});

test('findTruthLeaks: claim sentences and fractional values; integers, tolerances and article values exempt', () => {
  const cases = [{ id: 'limiting:0', truth: 'The ground state energy is -1.6160254. The relative error tolerance is +/- 0.001.' }, { id: 'limiting:1', truth: 'The ground state energy is -2. The relative error tolerance is +/- 0.01.' }];
  assert.deepEqual(findTruthLeaks([{ file: 'a', text: 'use 8 sites, tolerance 0.001, E = -2 at J = 1' }], cases), []);
  assert.deepEqual(findTruthLeaks([{ file: 'b', text: 'expect E0 = \u22121.6160254' }], cases).map((l) => [l.file, l.case, l.kind]), [['b', 'limiting:0', 'value']]);
  assert.deepEqual(findTruthLeaks([{ file: 'b', text: 'expect E0 = -1.6160254' }], cases, 'Table 1: 1.6160254'), []);
  assert.deepEqual(findTruthLeaks([{ file: 'c', text: 'Note: the ground  state energy is -2 here.' }], cases).map((l) => [l.case, l.kind]), [['limiting:1', 'sentence']]);
  assert.deepEqual(findTruthLeaks([{ file: 'd', text: 'E = 11.61602541' }], cases), [], 'a number that merely contains the digits is not the value');
  const spin = [{ id: 'limiting:0', truth: 'The expectation value is 0.75. The absolute error tolerance is +/- 0.01.' }];
  assert.deepEqual(findTruthLeaks([{ file: 'e', text: 'Limiting cases: <S^2> = 3/4 of the Li doublet' }], spin).map((l) => l.kind), ['value'], 'a fraction states its value');
});
