// The truth-leak guard over the whole suite: for every task of data/tasks (scaled and full size),
// every prompt that goes to a script-writing role (author, coder, unit-test writer, repairer,
// assertion writer, convergence writer) is built as the pipeline builds it and put through the
// LLM activity's guard (activities/llm/truth-guard.ts) with the task's LimitingCases and
// ScientificResults truths: nothing may be withheld. Also: a leak planted in a digest stops prepare,
// naming the digest, in every written form (notations, rounded, formulas); the runtime guard withholds
// a value and fails the call on a claim sentence.
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
import { guardPrompt, TruthLeakBug, WITHHELD } from '../../activities/llm/truth-guard.js';
import { truthGuardOf } from '../../workflows/shared/prepare.js';
import { SCRIPT_WRITING_ROLES } from '../../schemas/agent-roles.js';
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
    { role: 'unit-test-writer', messages: P.unitEntriesPrompt(ctx, script, ['hamiltonian_x']) },
    { role: 'unit-test-writer', messages: P.unitRefinePrompt(ctx, script, [{ function: 'hamiltonian_x', main: 'def main():\n    pass\n', errors: 'NameError' }]) },
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

test('no script-writing prompt of any task of the suite carries a truth (limiting cases and scientific results)', { timeout: 300_000 }, async () => {
  const files = taskFiles();
  assert.ok(files.length >= 16, `the suite has ${files.length} tasks`);
  let prompts = 0;
  let cases = 0;
  const leaks: string[] = [];
  for (const file of files) {
    for (const size of ['scaled', 'full'] as const) {
      const ctx = await pipeline.prepareTask({ taskFile: file, size });
      const guard = truthGuardOf(ctx);
      if (size === 'scaled') cases += guard.cases.length;
      for (const p of await scriptWritingPrompts(ctx)) {
        assert.ok(SCRIPT_WRITING_ROLES.includes(p.role), `${p.role} is guarded`);
        prompts++;
        const g = await guardPrompt(p.messages, store, guard, `${path.basename(file)} ${p.role}`);
        leaks.push(...g.redacted.map((l) => `${path.basename(file)} (${size}) ${p.role} ${l.file}: ${l.case} ${l.kind} ${l.found}`));
      }
    }
  }
  console.log(`truth-leak guard: ${prompts} script-writing prompts of ${files.length} tasks (scaled and full) checked against ${cases} truths, ${leaks.length} leaks`);
  assert.ok(cases > 100, 'limiting-case and scientific-result truths are both checked');
  assert.deepEqual(leaks, []);
});

test('the runtime guard withholds a planted truth value in any written form and fails the call on a claim sentence', async () => {
  const guard = { cases: [{ id: 'scientific:0', truth: 'The local magnetisations of the fourth spin at Jt = 0, 1, 2 are 1.0, 0.159, -0.661. The absolute error tolerance is +/- 0.1 for each checkpoint.' }, { id: 'limiting:0', truth: 'The string order is 0.4444444. The relative error tolerance is +/- 0.005.' }], allowed: [] };
  const script = await store.put('def main():\n    print(0.159)\n', { name: 'main.py' });
  for (const form of ['0.159', '1.59e-1', '.159', '0.1594', '\u22120.661', '4/9', '(2/3)^2', '0.444']) {
    const g = await guardPrompt([{ role: 'user', content: [{ text: `reference value ${form} at Jt = 1` }, { artifact: script, label: 'script' }] }], store, guard, 'repairer');
    assert.equal(g.redacted.length, 1, `${form} is found`);
    const text = (g.messages[0]!.content as { text?: string }[])[0]!.text!;
    assert.ok(text.includes(WITHHELD) && !text.includes(form), `${form} is withheld: ${text}`);
    assert.ok('artifact' in (g.messages[0]!.content as object[])[1]!, 'the script (model-written) is passed as it is');
  }
  // A LaTeX form is evaluated after rewriting, so it cannot be cut out of the text: the call fails instead.
  await assert.rejects(guardPrompt([{ role: 'user', content: 'order \\frac{4}{9}' }], store, guard, 'coder'), /could not be withheld/);
  for (const innocent of ['0.16', '0.2', '1.0', '0.15', 'L = 6, dt = 0.1']) {
    const g = await guardPrompt([{ role: 'user', content: `step ${innocent}` }], store, guard, 'coder');
    assert.deepEqual(g.redacted, [], `${innocent} is no leak`);
  }
  await assert.rejects(guardPrompt([{ role: 'user', content: 'Hint: the string order is 0.4444444.' }], store, guard, 'coder'), (err: Error) => {
    assert.ok(err instanceof TruthLeakBug);
    assert.match(err.message, /truth leak in the prompt to coder \(a physvec bug.*limiting:0/);
    return true;
  });
  // Allow-listed published values pass.
  const g = await guardPrompt([{ role: 'user', content: 'the article: 0.159' }], store, { ...guard, allowed: [{ value: 0.159, source: 'Fig. 2' }] }, 'author');
  assert.deepEqual(g.redacted, []);
});

test('a truth planted in a digest stops prepare with a message naming the digest', async () => {
  // What prepare checks (prepareTask calls assertNoTruthLeak on the same fields before any agent is asked).
  const task = JSON.parse(readFileSync(path.join(repoRoot, 'data/tasks/dft/task_dft_lih_b3lyp.json'), 'utf8'));
  const digest = path.join(repoRoot, 'data/papers/JPhysChemRefData.22.87.md');
  const limitingCases = (task.LimitingCases as { content: string; truth: string }[]).map((c, k) => ({ id: `limiting:${k}`, ...c }));
  const fields = { taskFile: 'task_dft_lih_b3lyp.json', request: task.User_requests, figure: task.subplot_name, limitingCases, scientificResults: [], convergenceCases: [] };
  for (const form of ['0.750', '3/4', '7.5e-1', '\\frac{3}{4}']) {
    assert.throws(() => assertNoTruthLeak({ ...fields, source: { file: '/tmp/d.md', text: `<S^2> = ${form} here`, kind: 'digest' } }), /truth leak: .*d\.md carries the truth of limiting:0/, `${form} is found at prepare`);
  }
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
