import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { flattenRubric } from '../../lib/rubrics/flatten.js';
import { gradeRubric, type Judge } from '../../lib/rubrics/grade.js';
import { normCheck } from '../../lib/rubrics/norm-check.js';
import { RubricTree } from '../../schemas/rubric.js';
import { DATASET, datasetMissing, readJson } from './dataset-fixture.js';

const leaf = (issue: string, weight: number) => ({ issue, weight, children: { judge: 'TBD' as const, support: 'TBD' } });
const cat = (id: string, weight: number, ...children: unknown[]) => ({ id, statement: `about ${id}`, weight, children });

// Mixed depths, as in the published trees: a category of leaves next to a category of categories.
const small = RubricTree.parse({
  source: 's',
  guide_caption: 'caption',
  task: 't',
  weight: 1,
  children: [cat('a', 0.4, leaf('a1', 0.5), leaf('a2', 0.5)), cat('b', 0.6, cat('b1', 0.5, leaf('b1x', 1)), cat('b2', 0.5, leaf('b2x', 0.2), leaf('b2y', 0.8)))],
});

test('flattenRubric lists leaves in order with 1-based index, path ids and path-product weights', () => {
  const leaves = flattenRubric(small);
  assert.deepEqual(
    leaves.map((l) => [l.index, l.path.join('/'), l.category, l.issue, l.weight]),
    [
      [1, 'a', 'about a', 'a1', 0.5],
      [2, 'a', 'about a', 'a2', 0.5],
      [3, 'b/b1', 'about b', 'b1x', 1],
      [4, 'b/b2', 'about b', 'b2x', 0.2],
      [5, 'b/b2', 'about b', 'b2y', 0.8],
    ],
  );
  const eff = leaves.map((l) => l.effectiveWeight);
  [0.2, 0.2, 0.3, 0.06, 0.24].forEach((w, i) => assert.ok(Math.abs(eff[i]! - w) < 1e-12, `leaf ${i + 1}: ${eff[i]} vs ${w}`));
});

test('normCheck holds at 1 within 1e-4 and fails outside it', () => {
  const ok = normCheck(flattenRubric(small));
  assert.ok(ok.ok);
  assert.ok(Math.abs(ok.total - 1) < 1e-12);
  assert.ok(normCheck([{ effectiveWeight: 0.99995 }]).ok);
  const off = normCheck([{ effectiveWeight: 0.5 }, { effectiveWeight: 0.4998 }]);
  assert.equal(off.ok, false);
  assert.ok(Math.abs(off.total - 0.9998) < 1e-12);
  assert.equal(normCheck([]).ok, false);
});

test('gradeRubric: full pass is 1, none is 0, partial is the sum of effective weights of passed leaves', () => {
  const leaves = flattenRubric(small);
  assert.ok(Math.abs(gradeRubric(leaves, [1, 1, 1, 1, 1]) - 1) < 1e-12);
  assert.equal(gradeRubric(leaves, [0, 0, 0, 0, 0]), 0);
  assert.ok(Math.abs(gradeRubric(leaves, [1, 0, 1, 0, 1]) - (0.2 + 0.3 + 0.24)) < 1e-12);
  assert.throws(() => gradeRubric(leaves, [1, 1]), /2 judges for 5 rubric leaves/);
  assert.throws(() => gradeRubric(leaves, [1, 1, 1, 1, 'TBD' as unknown as Judge]), /judge 5 is TBD/);
});

test('every published rubric passes NormCheck and a full pass grades to 1', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const dir = path.join(DATASET, 'Rubrics', 'dmrg');
  const counts: Record<string, number> = {};
  for (const f of readdirSync(dir)) {
    const leaves = flattenRubric(RubricTree.parse(await readJson(path.join(dir, f))));
    counts[f] = leaves.length;
    assert.ok(normCheck(leaves).ok, f);
    assert.ok(Math.abs(gradeRubric(leaves, leaves.map(() => 1)) - 1) < 1e-4, f);
  }
  assert.deepEqual(counts, {
    'PhysRevLett.100.110403_Fig._1_a_right_rubrics.json': 19,
    'PhysRevLett.73.882_Fig._2_rubrics.json': 21,
    'PhysRevLett.95.240404_Fig._2_rubrics.json': 16,
    'PhysRevLett.95.240404_Fig._4_rubrics.json': 17,
  });
});
