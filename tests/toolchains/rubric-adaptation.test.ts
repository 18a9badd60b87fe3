// Rubric leaves naming ITensors or its API are adapted for TeNPy, on the four published dmrg rubric
// files, and every change is listed; leaves about physics are left alone.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { qmpBenchRoot } from '../../lib/paths.js';
import { loadRubricFile } from '../../lib/rubrics/load.js';
import { adaptRubricLeaves } from '../../lib/toolchains/rubric-adaptation.js';
import { planSubstitution } from '../../lib/toolchains/substitution.js';

const RUBRICS = path.join(qmpBenchRoot, 'Rubrics', 'dmrg');
const datasetMissing = existsSync(RUBRICS) ? null : `QMP-Bench rubrics are not at ${RUBRICS}`;
const sub = planSubstitution({ User_requests: 'You MUST use ITensors and ITensorMPS packages.', topic: 'dmrg' }, { toolchain: 'tenpy' }, ['tenpy']);
const ITENSORS_TERMS = /ITensors|ITensorMPS|OpSum|AutoMPO|siteinds|\bnsweeps?\b|\bmaxdim\b|\bcutoff\b|\bdmrg\(/;

test('every published dmrg rubric: leaves naming ITensors or its parameters are adapted, the others untouched', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const files = readdirSync(RUBRICS).filter((f) => f.endsWith('.json'));
  assert.equal(files.length, 4);
  for (const file of files) {
    const rubric = await loadRubricFile(path.join(RUBRICS, file));
    const leaves = rubric.leaves ?? assert.fail(`${file}: ${JSON.stringify(rubric.problems)}`);
    const { leaves: out, adapted } = adaptRubricLeaves(leaves, sub);
    assert.equal(out.length, leaves.length, file);
    const usesLeaf = leaves.find((l) => /uses ITensors and ITensorMPS packages to calculate/.test(l.issue)) ?? assert.fail(`${file} has no package leaf`);
    const usesAdapted = adapted.find((a) => a.index === usesLeaf.index) ?? assert.fail(`${file}: the package leaf was not adapted`);
    assert.match(usesAdapted.adapted, /^The code uses the TeNPy \(physics-tenpy\) package to calculate\.?$/);
    leaves.forEach((leaf, i) => {
      const change = adapted.find((a) => a.index === leaf.index);
      if (ITENSORS_TERMS.test(leaf.issue)) {
        assert.ok(change, `${file} leaf ${leaf.index} names an ITensors term and must be adapted: ${leaf.issue}`);
        assert.doesNotMatch(out[i]!.issue, ITENSORS_TERMS, `${file} leaf ${leaf.index} still names an ITensors term`);
      } else {
        assert.equal(change, undefined, `${file} leaf ${leaf.index} names no ITensors term and must stay: ${leaf.issue}`);
        assert.equal(out[i], leaf, 'untouched leaves are the same objects');
      }
      if (change) {
        assert.equal(change.original, leaf.issue);
        assert.equal(out[i]!.issue, change.adapted);
        assert.equal(out[i]!.weight, leaf.weight, 'weights are kept');
      }
    });
  }
});

test('task_dmrg_7_2 rubric: cutoff becomes svd_min and nsweep becomes max_sweeps', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const rubric = await loadRubricFile(path.join(RUBRICS, 'PhysRevLett.100.110403_Fig._1_a_right_rubrics.json'));
  const { adapted } = adaptRubricLeaves(rubric.leaves!, sub);
  assert.deepEqual(
    adapted.map((a) => [a.index, a.adapted]),
    [
      [9, 'The code uses the TeNPy (physics-tenpy) package to calculate.'],
      [12, 'The code sets the svd_min parameter to be less than (or equal to) 1e-7, i.e. svd_min <= 1e-7.'],
      [15, 'The code sets the max_sweeps parameter for interacting and non-interacting cases at least 40.'],
    ],
  );
});

test('leaves naming ITensors APIs map to their TeNPy equivalents', () => {
  const leaves = [
    'The code builds the Hamiltonian with OpSum() and converts it with MPO(os, sites).',
    'The code uses AutoMPO terms "Cdagup","Cup" for hopping.',
    'The code creates sites with siteinds("Electron", L; conserve_qns=true).',
    'The code uses siteinds("S=1", L) for the spin-1 chain.',
    'The code calls dmrg(H, psi0; nsweeps, maxdim, cutoff) with maxdim = 200.',
    'The code measures densities with expect(psi, "Nup").',
  ].map((issue, i) => ({ index: i + 1, issue }));
  const { adapted } = adaptRubricLeaves(leaves, sub);
  assert.deepEqual(
    adapted.map((a) => a.adapted),
    [
      "The code builds the Hamiltonian with a TeNPy CouplingMPOModel and converts it with the model's MPO (model.H_MPO).",
      'The code uses a TeNPy CouplingMPOModel (add_onsite/add_coupling terms) terms "Cdagup","Cup" for hopping.',
      'The code creates sites with SpinHalfFermionSite.',
      'The code uses SpinSite(S=1) for the spin-1 chain.',
      'The code calls dmrg.run(H, psi0; max_sweeps, chi_max, svd_min) with chi_max = 200.',
      'The code measures densities with psi.expectation_value("Nup").',
    ],
  );
});

test('no substitution, no change', () => {
  const leaves = [{ index: 1, issue: 'The code uses ITensors and ITensorMPS packages to calculate.' }];
  const native = planSubstitution({ User_requests: 'You MUST use ITensors.', topic: 'dmrg' }, {}, ['itensors']);
  assert.deepEqual(adaptRubricLeaves(leaves, native), { leaves, adapted: [] });
});
