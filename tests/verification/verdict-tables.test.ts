// Table-driven tests of the verdict logic that decides a run, pure functions only (no sandbox, no
// LLM, no Temporal): the Programming verifier's scores and unit verdict rule, numeric and property
// comparison of assertions, assertion checking, rubric grading and NormCheck, and the Scientific
// verdict. Each row states an input and the verdict the paper's rule gives; edge rows (NaN, a value
// exactly on the tolerance, an empty rubric, every test undetermined) are where a regression hides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { programmingScores } from '../../lib/verification/programming-scores.js';
import { judgeUnitRun } from '../../lib/harness/unit-verdict.js';
import { checkProperty, compareNumeric, parseTruth, type ParsedTruth } from '../../lib/tasks/truth.js';
import { checkAssertions, observedNumbers } from '../../activities/pipeline/assertions.js';
import { gradeRubric, type Judge } from '../../lib/rubrics/grade.js';
import { normCheck } from '../../lib/rubrics/norm-check.js';
import { scientificVerdict, type ScientificPass } from '../../workflows/verifiers/scientific-pass.js';
import type { RunDigest } from '../../schemas/pipeline.js';

type Numeric = Extract<ParsedTruth, { kind: 'numeric' }>;
const rel = (values: number[], value: number): Numeric => ({ kind: 'numeric', values, tolerance: { type: 'relative', value, stated: true } } as Numeric);
const abs = (values: number[], value: number): Numeric => ({ kind: 'numeric', values, tolerance: { type: 'absolute', value, stated: true } } as Numeric);

test('programming scores: unit accuracy over determined tests, integration mean, executable', () => {
  const u = (...judges: ('correct' | 'wrong' | 'undetermined')[]) => judges.map((judge) => ({ judge }));
  const ok = { exitCode: 0, timedOut: false };
  const rows: [string, ReturnType<typeof u>, number[], { exitCode: number | null; timedOut: boolean }, { unitAccuracy: number; integrationAccuracy: number; executable: boolean }][] = [
    ['all correct', u('correct', 'correct'), [1, 1], ok, { unitAccuracy: 1, integrationAccuracy: 1, executable: true }],
    ['one of two wrong', u('correct', 'wrong'), [1], ok, { unitAccuracy: 0.5, integrationAccuracy: 1, executable: true }],
    ['undetermined tests do not count', u('correct', 'undetermined', 'wrong', 'undetermined'), [], ok, { unitAccuracy: 0.5, integrationAccuracy: 1, executable: true }],
    ['all undetermined → 1 (nothing against the script)', u('undetermined', 'undetermined'), [], ok, { unitAccuracy: 1, integrationAccuracy: 1, executable: true }],
    ['no element functions → 1', u(), [], ok, { unitAccuracy: 1, integrationAccuracy: 1, executable: true }],
    ['all wrong', u('wrong', 'wrong', 'undetermined'), [0, 0.5], ok, { unitAccuracy: 0, integrationAccuracy: 0.25, executable: true }],
    ['integration mean of ratios', u('correct'), [1, 0.5, 0], ok, { unitAccuracy: 1, integrationAccuracy: 0.5, executable: true }],
    ['non-zero exit → not executable', u('correct'), [1], { exitCode: 1, timedOut: false }, { unitAccuracy: 1, integrationAccuracy: 1, executable: false }],
    ['killed (no exit code) → not executable', u('correct'), [1], { exitCode: null, timedOut: false }, { unitAccuracy: 1, integrationAccuracy: 1, executable: false }],
    ['timed out with exit 0 → not executable', u('correct'), [1], { exitCode: 0, timedOut: true }, { unitAccuracy: 1, integrationAccuracy: 1, executable: false }],
  ];
  for (const [name, units, ratios, full, want] of rows) {
    assert.deepEqual(programmingScores(units, ratios.map((correct_ratio) => ({ correct_ratio })), full), want, name);
  }
});

test('unit verdict rule: timeouts, clean exits, failures without a traceback into the harness', () => {
  const harness = { fileName: 'test_f.py', source: 'def f():\n    pass\n\ndef main():\n    f()\n' };
  const run = (exitCode: number | null, timedOut = false, stderrTail = '') => ({ exitCode, timedOut, durationMs: 1234, stderrTail });
  const rows: [string, ReturnType<typeof run>, boolean, 'correct' | 'wrong' | 'undetermined', RegExp][] = [
    ['exit 0 and main calls the target → correct', run(0), true, 'correct', /^None$/],
    ['exit 0 but main never calls the target → undetermined', run(0), false, 'undetermined', /never calls f/],
    ['timed out → undetermined (the test is too big), even with exit 0', run(0, true), true, 'undetermined', /timed out after 1234 ms/],
    ['timed out with a failure → still undetermined', run(1, true, 'Traceback'), true, 'undetermined', /timed out/],
    ['failed without a traceback into the harness → undetermined', run(1, false, 'Killed'), true, 'undetermined', /without a traceback into it/],
    ['killed by a signal (no exit code), no traceback → undetermined', run(null, false, ''), true, 'undetermined', /without a traceback/],
  ];
  for (const [name, r, entryCallsTarget, judge, errors] of rows) {
    const v = judgeUnitRun({ target: 'f', harness, entryCallsTarget, elementFunctions: new Set(['f']), run: r });
    assert.equal(v.judge, judge, name);
    assert.match(v.errors, errors, name);
    if (judge !== 'wrong') assert.equal(v.blame, undefined, `${name}: no blame`);
  }
});

test('compareNumeric: tolerance boundaries, NaN and infinities, zero, shapes', () => {
  const rows: [string, number | number[], Numeric, boolean, string?][] = [
    ['exact', 1, rel([1], 0.01), true],
    ['exactly on a relative edge passes', 1.01, rel([1], 0.01), true],
    ['just over a relative edge fails', 1.0101, rel([1], 0.01), false],
    ['relative edge below', 0.99, rel([1], 0.01), true],
    ['exactly on an absolute edge passes (float noise ignored)', 0.3, abs([0.1 + 0.1], 0.1), true],
    ['just over an absolute edge fails', 2.1000001, abs([2], 0.1), false],
    ['negative expected, relative', -1.005, rel([-1], 0.01), true],
    ['NaN observed fails', Number.NaN, rel([1], 0.5), false],
    ['Infinity observed fails', Number.POSITIVE_INFINITY, abs([1], 1e9), false],
    ['-Infinity observed fails', Number.NEGATIVE_INFINITY, abs([0], 1e9), false],
    ['relative at expected 0 is applied as absolute (pass)', 0.005, rel([0], 0.01), true, 'absolute'],
    ['relative at expected 0 is applied as absolute (fail)', 0.02, rel([0], 0.01), false, 'absolute'],
    ['one expected value against every observed element', [6, 6, 6.001], rel([6], 0.01), true],
    ['one expected value, one element off', [6, 7], rel([6], 0.01), false],
    ['element-wise vectors', [1, 2, 3], rel([1, 2, 3.02], 0.01), true],
    ['length mismatch fails with a note', [1, 2], rel([1, 2, 3], 0.5), false, 'expected 3 values'],
    ['nothing observed fails with a note', [], rel([1], 0.5), false, 'no observed value'],
    ['one NaN element among good ones fails', [1, Number.NaN], abs([1, 1], 10), false],
  ];
  for (const [name, observed, truth, pass, note] of rows) {
    const cmp = compareNumeric(observed, truth);
    assert.equal(cmp.pass, pass, `${name}: error ${cmp.error}`);
    if (note) assert.match(cmp.note ?? '', new RegExp(note), name);
  }
});

test('checkProperty: symmetric and constant truths by code; no property → undefined', () => {
  const q = (property: 'spatially-symmetric' | 'constant' | undefined, tol?: number): Extract<ParsedTruth, { kind: 'qualitative' }> =>
    ({ kind: 'qualitative', property, ...(tol === undefined ? {} : { tolerance: { type: 'absolute', value: tol, stated: true } }) } as Extract<ParsedTruth, { kind: 'qualitative' }>);
  const rows: [string, number[], ReturnType<typeof q>, boolean | undefined][] = [
    ['symmetric vector', [1, 2, 3, 2, 1], q('spatially-symmetric'), true],
    ['asymmetric vector', [1, 2, 3, 2, 0.5], q('spatially-symmetric'), false],
    ['symmetric within a stated absolute tolerance', [1, 2, 1.05], q('spatially-symmetric', 0.1), true],
    ['one element is symmetric with itself', [4], q('spatially-symmetric'), true],
    ['constant vector', [0.5, 0.5, 0.5], q('constant'), true],
    ['constant up to the default 1 % relative', [100, 100.5, 99.6], q('constant'), true],
    ['not constant', [1, 1, 1.2], q('constant'), false],
    ['NaN is never constant', [1, Number.NaN, 1], q('constant'), false],
    ['empty vector fails', [], q('constant'), false],
    ['no property: a judge must decide', [1, 2], q(undefined), undefined],
  ];
  for (const [name, observed, truth, pass] of rows) assert.equal(checkProperty(observed, truth)?.pass, pass, name);
});

test('observedNumbers: what a PHYSVEC_RESULT line contributes', () => {
  const rows: [string, unknown[], string | undefined, number[] | undefined][] = [
    ['a number', [1.5], undefined, [1.5]],
    ['the last line wins', [1, 2], undefined, [2]],
    ['a named value', [{ name: 'E', value: -4 }, { name: 'M', value: 0.5 }], 'E', [-4]],
    ['a missing name', [{ name: 'M', value: 0.5 }], 'E', undefined],
    ['a numeric array', [{ value: [1, 2] }], undefined, [1, 2]],
    ['booleans as 0/1', [[true, false]], undefined, [1, 0]],
    ['a single boolean', [true], undefined, [1]],
    ['a mixed array is not numbers', [[1, 'a']], undefined, undefined],
    ['a string is not a number', ['1.0'], undefined, undefined],
    ['nothing printed', [], undefined, undefined],
  ];
  for (const [name, results, key, want] of rows) assert.deepEqual(observedNumbers(results, key), want, name);
});

test('checkAssertions: one verdict per case, by code where the truth allows', () => {
  const digest = (id: string, over: Partial<RunDigest> = {}): RunDigest => ({ id, exitCode: 0, timedOut: false, durationMs: 1, stdoutTail: 'out', stderrTail: '', results: [], files: [], missingProtections: [], ...over });
  const rows: [string, string, RunDigest | undefined, string | undefined, 'correct' | 'wrong' | 'undetermined' | 'error', string][] = [
    ['numeric within 1 %', 'The energy is -4.0 (within 1%)', digest('c', { results: [-4.02] }), undefined, 'correct', 'numeric'],
    ['numeric outside 1 %', 'The energy is -4.0 (within 1%)', digest('c', { results: [-4.2] }), undefined, 'wrong', 'numeric'],
    ['numeric truth, NaN printed', 'The energy is -4.0 (within 1%)', digest('c', { results: [Number.NaN] }), undefined, 'wrong', 'numeric'],
    ['numeric truth, nothing numeric printed', 'The energy is -4.0', digest('c', { results: ['done'] }), undefined, 'error', 'none'],
    ['variant crashed', 'The energy is -4.0', digest('c', { exitCode: 1, stderrTail: 'ValueError: x' }), undefined, 'error', 'none'],
    ['variant timed out', 'The energy is -4.0', digest('c', { exitCode: null, timedOut: true }), undefined, 'error', 'none'],
    ['no variant written', 'The energy is -4.0', undefined, undefined, 'error', 'none'],
    ['variant problem reported', 'The energy is -4.0', digest('c', { results: [-4] }), 'main does not parse', 'error', 'none'],
    ['symmetric by code', 'The profile is spatially symmetric', digest('c', { results: [[1, 2, 1]] }), undefined, 'correct', 'property'],
    ['asymmetric by code', 'The profile is spatially symmetric', digest('c', { results: [[1, 2, 3]] }), undefined, 'wrong', 'property'],
    ['qualitative without a property → the LLM judge', 'The curve rises then falls', digest('c', { results: [[1, 2, 1]] }), undefined, 'undetermined', 'llm'],
  ];
  for (const [name, truth, run, problem, judge, method] of rows) {
    const parsed = parseTruth(truth);
    if (method === 'property') assert.equal(parsed.kind, 'qualitative', `${name}: truth parses as qualitative`);
    if (method === 'numeric') assert.equal(parsed.kind, 'numeric', `${name}: truth parses as numeric`);
    const out = checkAssertions({ cases: [{ id: 'c', content: 'claim', truth }], runs: run ? [run] : [], problems: problem ? [{ case: 'c', problem }] : [] });
    assert.equal(out.verdicts.length, 1, name);
    assert.equal(out.verdicts[0]!.judge, judge, `${name}: ${out.verdicts[0]!.reason}`);
    assert.equal(out.verdicts[0]!.method, method, name);
    assert.equal(out.qualitative.length, method === 'llm' ? 1 : 0, `${name}: sent to the judge only when code cannot decide`);
  }
});

test('rubric grade, failed issues and NormCheck', () => {
  const leaves = (...w: number[]) => w.map((effectiveWeight) => ({ effectiveWeight }));
  const rows: [string, number[], Judge[], number, number[]][] = [
    ['all met', [0.5, 0.25, 0.25], [1, 1, 1], 1, []],
    ['one missed', [0.5, 0.25, 0.25], [1, 0, 1], 0.75, [2]],
    ['all missed', [0.5, 0.5], [0, 0], 0, [1, 2]],
    ['empty rubric grades 0 with nothing failed', [], [], 0, []],
  ];
  for (const [name, w, judges, grade] of rows) {
    assert.ok(Math.abs(gradeRubric(leaves(...w), judges) - grade) < 1e-12, name);
  }
  assert.throws(() => gradeRubric(leaves(0.5, 0.5), [1]), /1 judges for 2 rubric leaves/, 'one judge per leaf');
  assert.throws(() => gradeRubric(leaves(1), [2 as Judge]), /judge 1 is 2, expected 0 or 1/, 'judges are 0 or 1');
  assert.throws(() => gradeRubric(leaves(1), [Number.NaN as Judge]), /judge 1 is NaN/, 'NaN is not a judge');

  const norms: [string, number[], boolean][] = [
    ['sums to 1', [0.5, 0.5], true],
    ['within 1e-4 above', [0.5, 0.50009], true],
    ['within 1e-4 below', [0.5, 0.49991], true],
    ['just outside 1e-4', [0.5, 0.5002], false],
    ['empty rubric fails NormCheck', [], false],
    ['NaN weight fails', [0.5, Number.NaN], false],
  ];
  for (const [name, w, ok] of norms) assert.equal(normCheck(leaves(...w)).ok, ok, name);
});

test('scientific verdict: passed only when the rubric is met (or absent) and every assertion is correct', () => {
  const rubric = (over: Partial<ScientificPass['rubric']>): ScientificPass['rubric'] => ({ available: true, grades: [1], gradeMean: 1, gradeStd: 0, failed: [], ...over });
  const a = (...judges: ('correct' | 'wrong' | 'undetermined' | 'error')[]) =>
    judges.map((judge, i) => ({ case: `c${i}`, content: '', truth: '', judge, method: 'numeric' as const, reason: '', exitCode: 0 }));
  const failedIssue = [{ index: 1, issue: 'uses PBC', support: 'no' }];
  const rows: [string, ScientificPass['rubric'], ReturnType<typeof a>, { rubricOk: boolean; assertionsOk: boolean; passed: boolean }][] = [
    ['all met', rubric({}), a('correct', 'correct'), { rubricOk: true, assertionsOk: true, passed: true }],
    ['no rubric, assertions correct', rubric({ available: false, grades: [], gradeMean: null, gradeStd: null }), a('correct'), { rubricOk: true, assertionsOk: true, passed: true }],
    ['a rubric issue missed', rubric({ gradeMean: 0.75, failed: failedIssue }), a('correct'), { rubricOk: false, assertionsOk: true, passed: false }],
    ['failed issue listed but every grade full', rubric({ gradeMean: 1, failed: failedIssue }), a('correct'), { rubricOk: true, assertionsOk: true, passed: true }],
    ['one assertion wrong', rubric({}), a('correct', 'wrong'), { rubricOk: true, assertionsOk: false, passed: false }],
    ['an assertion still undetermined is not a pass', rubric({}), a('undetermined'), { rubricOk: true, assertionsOk: false, passed: false }],
    ['an assertion errored', rubric({}), a('error'), { rubricOk: true, assertionsOk: false, passed: false }],
    ['no assertions, rubric met', rubric({}), a(), { rubricOk: true, assertionsOk: true, passed: true }],
    ['both fail', rubric({ gradeMean: 0, failed: failedIssue }), a('wrong'), { rubricOk: false, assertionsOk: false, passed: false }],
  ];
  for (const [name, r, assertions, want] of rows) assert.deepEqual(scientificVerdict({ rubric: r, assertions, localisation: [] }), want, name);
});
