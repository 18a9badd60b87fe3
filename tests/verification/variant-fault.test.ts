// Whose fault a failed assertion variant is, by the innermost traceback frame in the variant's own
// file: inside its replacement main → the writer's (undetermined, variantFault); inside a script
// function → the script's (error, as before). And a case whose variant is at fault never fails the
// scientific verdict nor accuses a function.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkAssertions } from '../../activities/pipeline/assertions.js';
import { variantFailure, type VariantLines } from '../../lib/harness/variant-verdict.js';
import { localiseCases, rankSuspects } from '../../lib/verification/suspects.js';
import { scientificVerdict } from '../../workflows/verifiers/scientific-pass.js';
import type { AssertionVerdict, RunDigest } from '../../schemas/pipeline.js';

const LINES: VariantLines = { case: 'c', file: 'variant_c.py', main: { startLine: 40, endLine: 43 }, entry: { startLine: 46, endLine: 47 } };
const tb = (...frames: [string, number, string][]) =>
  ['Traceback (most recent call last):', ...frames.map(([f, l, fn]) => `  File "/tmp/job/${f}", line ${l}, in ${fn}`), 'NameError: boom'].join('\n');
const digest = (over: Partial<RunDigest> = {}): RunDigest => ({ id: 'c', exitCode: 1, timedOut: false, durationMs: 1, stdoutTail: '', stderrTail: '', results: [], files: [], missingProtections: [], ...over });

test('variantFailure: the innermost frame in the variant file decides', () => {
  const rows: [string, RunDigest, 'variant' | 'script'][] = [
    ['NameError in main after the functions returned', digest({ stderrTail: tb(['variant_c.py', 47, '<module>'], ['variant_c.py', 42, 'main']) }), 'variant'],
    ['main calls numpy wrongly (library frame below main)', digest({ stderrTail: tb(['variant_c.py', 47, '<module>'], ['variant_c.py', 41, 'main'], ['numpy/core.py', 10, 'dot']) }), 'variant'],
    ['main() called with arguments it does not take', digest({ stderrTail: tb(['variant_c.py', 47, '<module>']) }), 'variant'],
    ['raised inside an element function', digest({ stderrTail: tb(['variant_c.py', 47, '<module>'], ['variant_c.py', 41, 'main'], ['variant_c.py', 12, 'hamiltonian_x']) }), 'script'],
    ['library error below an element function', digest({ stderrTail: tb(['variant_c.py', 41, 'main'], ['variant_c.py', 20, 'effector_x'], ['scipy/linalg.py', 5, 'eigh']) }), 'script'],
    ['script top-level import failed', digest({ stderrTail: tb(['variant_c.py', 3, '<module>']) }), 'script'],
    ['no traceback (killed)', digest({ exitCode: 137 }), 'script'],
    ['timed out', digest({ exitCode: null, timedOut: true, stderrTail: tb(['variant_c.py', 42, 'main']) }), 'script'],
    ['a traceback of another file only', digest({ stderrTail: tb(['other.py', 42, 'main']) }), 'script'],
  ];
  for (const [name, run, fault] of rows) assert.equal(variantFailure(LINES, run).fault, fault, name);
});

test('checkAssertions with variant lines: the writer\'s faults are undetermined, the script\'s are errors', () => {
  const cases = [{ id: 'c', content: 'claim', truth: 'The energy is -4.0 (within 1%)' }];
  const check = (runs: RunDigest[], problems: { case: string; problem: string }[] = []) => checkAssertions({ cases, runs, problems, lines: [LINES] }).verdicts[0]!;
  const inMain = check([digest({ stderrTail: tb(['variant_c.py', 47, '<module>'], ['variant_c.py', 42, 'main']) })]);
  assert.equal(inMain.judge, 'undetermined');
  assert.equal(inMain.variantFault, true);
  assert.match(inMain.reason, /the variant's main \(line 3 of it\)/);
  assert.match(inMain.reason, /NameError: boom/);
  const inScript = check([digest({ stderrTail: tb(['variant_c.py', 41, 'main'], ['variant_c.py', 12, 'hamiltonian_x']) })]);
  assert.equal(inScript.judge, 'error');
  assert.equal(inScript.variantFault, undefined);
  const nothingPrinted = check([digest({ exitCode: 0, results: ['done'] })]);
  assert.equal(nothingPrinted.judge, 'undetermined');
  assert.equal(nothingPrinted.variantFault, true);
  const unbuilt = check([], [{ case: 'c', problem: 'could not build the variant' }]);
  assert.equal(unbuilt.variantFault, true);
  assert.equal(check([digest({ exitCode: 0, results: [-4.01] })]).judge, 'correct');
  // Without lines (activity inputs recorded before), the old verdicts.
  assert.equal(checkAssertions({ cases, runs: [digest({ stderrTail: tb(['variant_c.py', 42, 'main']) })], problems: [] }).verdicts[0]!.judge, 'error');
});

test('an excluded case neither fails the verdict nor accuses a function; all excluded is no pass', () => {
  const v = (c: string, judge: AssertionVerdict['judge'], variantFault?: boolean): AssertionVerdict => ({ case: c, content: '', truth: '', judge, method: 'none', reason: '', exitCode: 0, ...(variantFault ? { variantFault } : {}) });
  const noRubric = { available: false, grades: [], gradeMean: null, gradeStd: null, failed: [] };
  assert.equal(scientificVerdict({ rubric: noRubric, assertions: [v('a', 'correct'), v('b', 'undetermined', true)], localisation: [] }).passed, true);
  assert.equal(scientificVerdict({ rubric: noRubric, assertions: [v('b', 'undetermined', true)], localisation: [] }).passed, false, 'nothing was checked');
  assert.equal(scientificVerdict({ rubric: noRubric, assertions: [v('a', 'wrong'), v('b', 'undetermined', true)], localisation: [] }).passed, false);
  const reach = [{ case: 'a', main: 'm', calls: ['hamiltonian_x'] }, { case: 'b', main: 'm', calls: ['effector_y'] }];
  const runs = ['a', 'b'].map((id) => ({ id, exitCode: 0, stdoutTail: '', stderrTail: '' }));
  const loc = localiseCases(reach, runs, [v('a', 'correct'), v('b', 'undetermined', true)]);
  assert.deepEqual(loc.map((l) => l.case), ['a']);
  assert.deepEqual(rankSuspects(loc), [], 'no suspects: no repair is asked');
});
