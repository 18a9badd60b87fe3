import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkProperty, compareNumeric, parseTolerance, parseTruth, toleranceProblem, type ParsedTruth } from '../../lib/tasks/truth.js';
import { DATASET, datasetMissing, readJson } from './dataset-fixture.js';

type Numeric = Extract<ParsedTruth, { kind: 'numeric' }>;
type Qualitative = Extract<ParsedTruth, { kind: 'qualitative' }>;

/** Every distinct truth in the published dataset, with what a reader takes from it: values, tolerance. */
const NUMERIC: Record<string, [number[], 'relative' | 'absolute', number]> = {
  'The total ground state energy is -2. The relative error tolerance is +/- 0.01.': [[-2], 'relative', 0.01],
  'The total ground state energy is 1. The relative error tolerance is +/- 0.01.': [[1], 'relative', 0.01],
  'The total ground state energy is -4.242640687119284 . The relative error tolerance is +/- 0.01.': [[-4.242640687119284], 'relative', 0.01],
  'The energy is -6.957010852370434, the relative error tolerance is +/- 0.01.': [[-6.957010852370434], 'relative', 0.01],
  'The total ground state energy is 0.8801771369231284. The relative error tolerance is +/- 0.01.': [[0.8801771369231284], 'relative', 0.01],
  'The nematic susceptibility is 13.913368679396854 . The relative error tolerance is +/- 0.01.': [[13.913368679396854], 'relative', 0.01],
  'The total ground state energy is -4. The relative error tolerance is +/- 0.01.': [[-4], 'relative', 0.01],
  'The total ground state energy is 0.0. The relative error tolerance is +/- 0.01.': [[0], 'relative', 0.01],
  'The total ground state energy is -2.102748 . The relative error tolerance is +/- 0.01.': [[-2.102748], 'relative', 0.01],
  'The Sz*Sz correlation at r = 2 is 0.1229. The relative error tolerance is +/- 0.01.': [[0.1229], 'relative', 0.01],
  'The Nup and Ndown of the calculated ground state are both 6. The relative error tolerance is +/- 0.05.': [[6], 'relative', 0.05],
  'The spin gap at is 0.254905948051122. The relative error tolerance is +/- 0.01.': [[0.254905948051122], 'relative', 0.01],
  'The ground state energy is -2. The relative error tolerance is +/- 0.05.': [[-2], 'relative', 0.05],
  'The ground state energy is -1.236. The relative error tolerance is +/- 0.05.': [[-1.236], 'relative', 0.05],
  'The ground state energy is -0.236. The relative error tolerance is +/- 0.05.': [[-0.236], 'relative', 0.05],
  'The Nup and Ndown of the calculated ground state are both 3. The relative error tolerance is +/- 0.05.': [[3], 'relative', 0.05],
  'The ratio is 0.693, the relative error tolerance is +/- 0.1.': [[0.693], 'relative', 0.1],
  'The ground state energy is -6.38. The absolute error tolerance is +/- 0.2.': [[-6.38], 'absolute', 0.2],
  'The ground state energy is -3. The absolute error tolerance is +/- 0.05.': [[-3], 'absolute', 0.05],
  'The nearest-neighbor spin correlations (|<sigma_i^z sigma_i+1^z>|) at time points t = 0.5, 1 are constantly 1. The absolute error tolerance is +/- 0.1.':
    [[1], 'absolute', 0.1],
  'The sigma_z of the first site at t = 0.5, 1 are -0.416, -0.654. The absolute error tolerance is +/- 0.1.': [[-0.416, -0.654], 'absolute', 0.1],
  'The total sigma_z at t = 0.5, 1 are constantly 0. The absolute error tolerance is +/- 0.1.': [[0], 'absolute', 0.1],
  'The ground state energy density is -1.773, the absolute error tolerance is +/- 0.2.': [[-1.773], 'absolute', 0.2],
  'The local magnetization on the fourth spin at time Jt = 0, 1, 2 are 1.0, 0.159, -0.661. The absolute error tolerance is +/- 0.1 for each checkpoint.':
    [[1, 0.159, -0.661], 'absolute', 0.1],
  'The local magnetization on the sixth spin at time Jt = 0, 1, 2 are 1.0, 0.0996, -0.827. The absolute error tolerance is +/- 0.1 for each checkpoint.':
    [[1, 0.0996, -0.827], 'absolute', 0.1],
};

/** The truths with no number to compare: they go to a judge (or to checkProperty). */
const QUALITATIVE: Record<string, ['spatially-symmetric' | 'constant', 'relative' | 'absolute', number]> = {
  'The expected values are spatially symmetric. The relative error tolerance is +/- 0.01.': ['spatially-symmetric', 'relative', 0.01],
  'The density distributions for both spin-up and spin-down are spatially symmetric. The relative error tolerance is +/- 0.05 (for each site).':
    ['spatially-symmetric', 'relative', 0.05],
  'The energy of the system at t = 0.5, 1 should be constant. Relative error tolerance is +/- 0.1.': ['constant', 'relative', 0.1],
};

async function datasetTruths(): Promise<{ truths: string[]; criteria: string[] }> {
  const truths: string[] = [];
  const criteria: string[] = [];
  for (const topic of ['dmrg', 'nnwf', 'qcmb']) {
    const dir = path.join(DATASET, topic, 'tasks');
    for (const f of readdirSync(dir)) {
      const task = await readJson(path.join(dir, f));
      for (const c of [...(task.LimitingCases ?? []), ...(task.ScientificResults ?? [])]) truths.push(c.truth);
      for (const c of task.ConvergenceCases ?? []) criteria.push(c.criteria);
    }
  }
  return { truths, criteria };
}

test('every truth string in the dataset parses as its prose says', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const { truths } = await datasetTruths();
  assert.equal(truths.length, 37);
  const distinct = new Set(truths);
  assert.deepEqual([...distinct].sort(), [...Object.keys(NUMERIC), ...Object.keys(QUALITATIVE)].sort(), 'the tables above list every distinct truth');
  for (const truth of distinct) {
    const p = parseTruth(truth);
    if (truth in QUALITATIVE) {
      const [property, type, value] = QUALITATIVE[truth]!;
      assert.equal(p.kind, 'qualitative', truth);
      assert.equal((p as Qualitative).property, property, truth);
      assert.deepEqual([(p as Qualitative).tolerance?.type, (p as Qualitative).tolerance?.value], [type, value], truth);
    } else {
      const [values, type, value] = NUMERIC[truth]!;
      assert.equal(p.kind, 'numeric', truth);
      assert.deepEqual((p as Numeric).values, values, truth);
      assert.deepEqual([(p as Numeric).tolerance.type, (p as Numeric).tolerance.value, (p as Numeric).tolerance.stated], [type, value, true], truth);
    }
  }
});

test('convergence criteria give their tolerance', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const { criteria } = await datasetTruths();
  assert.equal(criteria.length, 5);
  for (const c of criteria) {
    const tol = parseTolerance(c);
    assert.equal(tol?.type, 'absolute', c);
    assert.ok(tol!.value === 1e-3 || tol!.value === 0.01, c);
  }
});

test('other tolerance phrasings: ±, percentages, "within", scientific notation', () => {
  const cases: Array<[string, number[], 'relative' | 'absolute', number]> = [
    ['E = -2 ± 0.1', [-2], 'absolute', 0.1],
    ['The gap is 0.5 within 5%', [0.5], 'relative', 0.05],
    ['The gap is 0.5. The relative error tolerance is 2 percent.', [0.5], 'relative', 0.02],
    ['The energy is \u22121.2e-3. The absolute error tolerance is 1x10^-4.', [-0.0012], 'absolute', 1e-4],
    ['The value is 2.5 \u00d7 10^{-3}, tolerance \u00b1 10%', [0.0025], 'relative', 0.1],
    ['The energy is -1.5 +/- 0.05.', [-1.5], 'absolute', 0.05],
  ];
  for (const [text, values, type, value] of cases) {
    const p = parseTruth(text);
    assert.equal(p.kind, 'numeric', text);
    assert.deepEqual((p as Numeric).values, values, text);
    assert.equal((p as Numeric).tolerance.type, type, text);
    assert.ok(Math.abs((p as Numeric).tolerance.value - value) < 1e-15, text);
  }
  const noTol = parseTruth('The ground state energy is -2.');
  assert.equal(noTol.kind, 'numeric');
  assert.equal((noTol as Numeric).tolerance.stated, false);
  assert.equal(parseTruth('The plot shows a peak near the center.').kind, 'qualitative');
});

const numeric = (truth: string) => {
  const p = parseTruth(truth);
  assert.equal(p.kind, 'numeric');
  return p as Numeric;
};

test('compareNumeric: relative and absolute tolerances, edges included', () => {
  const e = numeric('The ground state energy is -2. The relative error tolerance is +/- 0.05.');
  assert.equal(compareNumeric(-2.09, e).pass, true);
  assert.equal(compareNumeric(-2.1, e).pass, true, 'exactly on the 5% edge');
  assert.equal(compareNumeric(-2.11, e).pass, false);
  assert.equal(compareNumeric(2, e).pass, false, 'the sign matters');
  const r = compareNumeric(-1.9, e);
  assert.ok(Math.abs(r.error - 0.05) < 1e-12);
  assert.deepEqual(r.expected, [-2]);
  const a = numeric('The ground state energy is -6.38. The absolute error tolerance is +/- 0.2.');
  assert.equal(compareNumeric(-6.2, a).pass, true);
  assert.equal(compareNumeric(-6.1, a).pass, false);
  assert.equal(compareNumeric(Number.NaN, a).pass, false);
});

test('compareNumeric: vectors, one value for several observables, length mismatch, zero', () => {
  const v = numeric('The sigma_z of the first site at t = 0.5, 1 are -0.416, -0.654. The absolute error tolerance is +/- 0.1.');
  assert.equal(compareNumeric([-0.4, -0.7], v).pass, true);
  const bad = compareNumeric([-0.4, -0.5], v);
  assert.equal(bad.pass, false);
  assert.ok(Math.abs(bad.errors[1]! - 0.154) < 1e-12);
  const mismatch = compareNumeric([-0.4, -0.7, 0], v);
  assert.equal(mismatch.pass, false);
  assert.match(mismatch.note!, /expected 2 values, observed 3/);
  const both = numeric('The Nup and Ndown of the calculated ground state are both 6. The relative error tolerance is +/- 0.05.');
  assert.equal(compareNumeric([6, 6.2], both).pass, true);
  assert.equal(compareNumeric([6, 5], both).pass, false);
  const zero = numeric('The total ground state energy is 0.0. The relative error tolerance is +/- 0.01.');
  assert.equal(compareNumeric(0.005, zero).pass, true);
  assert.equal(compareNumeric(0.02, zero).pass, false);
  assert.match(compareNumeric(0.005, zero).note!, /absolute where the expected value is 0/);
});

test('checkProperty decides symmetric and constant truths by code', () => {
  const sym = parseTruth('The density distributions for both spin-up and spin-down are spatially symmetric. The relative error tolerance is +/- 0.05 (for each site).') as Qualitative;
  assert.equal(checkProperty([0.2, 0.5, 0.8, 0.81, 0.5, 0.2], sym)!.pass, true);
  assert.equal(checkProperty([0.2, 0.5, 0.8, 0.6, 0.5, 0.2], sym)!.pass, false);
  const flat = parseTruth('The energy of the system at t = 0.5, 1 should be constant. Relative error tolerance is +/- 0.1.') as Qualitative;
  assert.equal(checkProperty([-3.0, -3.1], flat)!.pass, true);
  assert.equal(checkProperty([-3.0, -3.5], flat)!.pass, false);
  assert.equal(checkProperty([], flat)!.pass, false);
  assert.equal(checkProperty([1], parseTruth('The plot shows a peak.') as Qualitative), undefined);
});

test('a tolerance that is not a number > 0 is named, never flipped or dropped (issue 27.9)', () => {
  const truth = (tol: string) => `The ground state energy is -2. The relative error tolerance is +/- ${tol}.`;
  assert.match(toleranceProblem(truth('-0.05'))!, /the tolerance -0\.05 is negative/);
  assert.equal(parseTolerance(truth('-0.05'))!.value, -0.05, 'the sign is kept, not flipped');
  assert.match(toleranceProblem(truth('0'))!, /the tolerance is 0/);
  assert.match(toleranceProblem(truth('NaN'))!, /the tolerance "NaN" is not a number/);
  assert.match(toleranceProblem('stable within the absolute error tolerance of Infinity.')!, /"Infinity" is not a number/);
  // The claim keeps its number when the tolerance sentence is broken: numeric, not an LLM-judged truth.
  assert.equal(parseTruth(truth('NaN')).kind, 'numeric');
  for (const ok of [truth('0.05'), 'The energy should stop changing.', 'Stable within tolerance.', 'The echo at t = 1 is 0.81, within 5 %.']) {
    assert.equal(toleranceProblem(ok), undefined, ok);
  }
});
