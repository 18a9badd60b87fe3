// Substitution on the published task_dmrg_7_2 (QMP-Bench) and on small hand-made tasks: stop with a
// clear message, or with --toolchain / a configured default rewrite the demand for the Author.
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BadInputError } from '../../lib/errors.js';
import { qmpBenchRoot } from '../../lib/paths.js';
import { planSubstitution } from '../../lib/toolchains/substitution.js';
import type { SubstitutionPlan, ToolchainStatus } from '../../schemas/toolchain.js';

const TASK_FILE = path.join(qmpBenchRoot, 'dmrg', 'tasks', 'task_dmrg_7_2.json');
const datasetMissing = existsSync(TASK_FILE) ? null : `QMP-Bench is not laid out at ${qmpBenchRoot}`;
const published = () => {
  const raw = JSON.parse(readFileSync(TASK_FILE, 'utf8')) as { User_requests: string };
  return { User_requests: raw.User_requests, topic: 'dmrg', id: 'task_dmrg_7_2' };
};
const HERE = ['tenpy', 'netket', 'qiskit', 'pyscf'];
const DEMAND = 'You MUST use ITensors and ITensorMPS packages.';
const REWRITTEN = 'You MUST use the Python package physics-tenpy (TeNPy) instead of ITensors/ITensorMPS, which are not available here.';

function substituted(plan: SubstitutionPlan) {
  assert.ok(plan.ok && plan.substituted, `expected a substitution, got ${JSON.stringify(plan)}`);
  return plan;
}

test('task_dmrg_7_2 without julia and without --toolchain stops with a message saying what to do', (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  assert.deepEqual(planSubstitution(published(), {}, HERE), {
    ok: false,
    message:
      'task_dmrg_7_2 demands ITensors/ITensorMPS (Julia), which is not installed here; rerun with --toolchain tenpy to use the substitute, or install julia with ITensors',
  });
});

test('task_dmrg_7_2 with --toolchain tenpy: the demand sentence is rewritten, the rest of the request kept', (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const task = published();
  assert.ok(task.User_requests.includes(DEMAND), 'the published request still carries the demand');
  const plan = substituted(planSubstitution(task, { toolchain: 'tenpy' }, HERE));
  assert.equal(plan.profile, 'tenpy');
  assert.equal(plan.original, 'itensors');
  assert.equal(plan.rewrittenRequest, task.User_requests.replace(DEMAND, REWRITTEN));
  assert.doesNotMatch(plan.note, /\n/);
  assert.match(plan.note, /^Toolchain substitution: physics-tenpy \(profile tenpy, Python\) stands in for ITensors\/ITensorMPS \(profile itensors, Julia\), which is not installed here/);
});

test('a configured default substitute applies only when the demanded toolchain is absent', (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const plan = substituted(planSubstitution(published(), { configDefault: 'tenpy' }, HERE));
  assert.match(plan.note, /so the configured default was used/);
  assert.deepEqual(planSubstitution(published(), { configDefault: 'tenpy' }, [...HERE, 'itensors']), { ok: true, profile: 'itensors', substituted: false });
  const wrongTopic = planSubstitution(published(), { configDefault: 'netket' }, HERE);
  assert.equal(wrongTopic.ok, false);
  assert.match((wrongTopic as { message: string }).message, /which is not installed here \(the configured default "netket" cannot stand in for it here\); rerun with --toolchain tenpy/);
});

test('with itensors installed the task runs natively, unless --toolchain tenpy asks for the substitute', (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  assert.deepEqual(planSubstitution(published(), {}, [...HERE, 'itensors']), { ok: true, profile: 'itensors', substituted: false });
  assert.deepEqual(planSubstitution(published(), { toolchain: 'itensors' }, [...HERE, 'itensors']), { ok: true, profile: 'itensors', substituted: false });
  const onRequest = substituted(planSubstitution(published(), { toolchain: 'tenpy' }, [...HERE, 'itensors']));
  assert.match(onRequest.note, /which was replaced on request \(--toolchain tenpy\)/);
});

test('detection results: an unavailable toolchain is named with its reason and versions appear in the note', () => {
  const status = (profile: string, over: Partial<ToolchainStatus>): ToolchainStatus => ({
    profile, available: true, state: 'available', versions: {}, version: null, interpreter: '/x', language: 'python', topics: ['dmrg'], detectMs: 1, ...over,
  });
  const statuses = [
    status('itensors', { available: false, state: 'unavailable', reason: 'ITensors failed to load', language: 'julia' }),
    status('tenpy', { versions: { 'physics-tenpy': '1.1.1' }, version: '1.1.1' }),
  ];
  const task = { User_requests: `Reproduce Fig. 2. ${DEMAND}`, topic: 'dmrg', id: 'task_x' };
  const stop = planSubstitution(task, {}, statuses);
  assert.deepEqual(stop, {
    ok: false,
    message: 'task_x demands ITensors/ITensorMPS (Julia), which is unavailable here (ITensors failed to load); rerun with --toolchain tenpy to use the substitute, or install julia with ITensors',
  });
  const plan = substituted(planSubstitution(task, { toolchain: 'tenpy' }, statuses));
  assert.match(plan.note, /^Toolchain substitution: physics-tenpy 1\.1\.1 \(profile tenpy, Python\)/);
  assert.equal(plan.rewrittenRequest, `Reproduce Fig. 2. ${REWRITTEN}`);
});

test('ORCA demands are substituted by PySCF; NetKet and Qiskit demands run natively', () => {
  const dft = { User_requests: 'Compute the spectrum. You MUST use ORCA. Use the def2-TZVP basis.', topic: 'dft' };
  assert.deepEqual(planSubstitution(dft, {}, HERE), {
    ok: false,
    message: 'this task demands ORCA (ORCA input), which is not installed here; rerun with --toolchain pyscf to use the substitute, or install ORCA (https://orcaforum.kofo.mpg.de) and put `orca` on PATH',
  });
  const plan = substituted(planSubstitution(dft, { toolchain: 'pyscf' }, HERE));
  assert.match(plan.rewrittenRequest, /^Compute the spectrum\. You MUST use the Python package PySCF instead of ORCA, which is not available here; .* Use the def2-TZVP basis\.$/);
  assert.deepEqual(planSubstitution({ User_requests: 'You MUST use NetKet package.', topic: 'nnwf' }, {}, HERE), { ok: true, profile: 'netket', substituted: false });
  assert.deepEqual(planSubstitution({ User_requests: 'You MUST use Qiskit and related packages.', topic: 'qcmb' }, {}, HERE), { ok: true, profile: 'qiskit', substituted: false });
});

test('a task naming no package runs with the first available profile of its topic, reported as a substitution', () => {
  const plan = substituted(planSubstitution({ User_requests: 'Reproduce Fig. 3.', topic: 'dmrg' }, {}, HERE));
  assert.equal(plan.rewrittenRequest, `Reproduce Fig. 3. ${REWRITTEN}`);
  assert.match(plan.note, /the Author's request names the substitute/);
  const none = planSubstitution({ User_requests: 'Reproduce Fig. 3.', topic: 'dmrg' }, {}, ['netket']);
  assert.deepEqual(none, { ok: false, message: 'no toolchain for dmrg tasks is installed here (itensors: is not installed here; tenpy: is not installed here)' });
});

test('bad choices: a profile of another topic, an absent one, an unknown one, an unknown topic', () => {
  const task = { User_requests: DEMAND, topic: 'dmrg', id: 't' };
  assert.deepEqual(planSubstitution(task, { toolchain: 'qiskit' }, HERE), {
    ok: false,
    message: '--toolchain qiskit serves qsim tasks, not dmrg; profiles for dmrg: itensors, tenpy',
  });
  const absent = planSubstitution(task, { toolchain: 'tenpy' }, ['netket']);
  assert.equal(absent.ok, false);
  assert.match((absent as { message: string }).message, /^--toolchain tenpy was given, but TeNPy \(physics-tenpy\) \(Python\) is not installed here; pip install physics-tenpy/);
  assert.throws(() => planSubstitution(task, { toolchain: 'tenpyy' }, HERE), (e: unknown) => e instanceof BadInputError && /unknown toolchain profile "tenpyy"; known profiles: itensors, tenpy/.test(e.message));
  assert.throws(() => planSubstitution({ ...task, topic: 'chemistry' }, {}, HERE), /unknown topic "chemistry"; known topics: dmrg, nqs \(= nnwf\)/);
});
