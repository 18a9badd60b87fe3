// Issue 24: a toolchain whose check timed out (a busy host) is not bad input. The worker's prepare
// step throws a retryable ToolchainBusy failure without looking for a substitute; the CLI preflight
// warns and lets the run start; an unavailable toolchain still stops with the install advice.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { BadInputError, ToolchainCheckTimedOutError } from '../../lib/errors.js';
import { repoRoot } from '../../lib/paths.js';
import { loadToolchainConfig } from '../../lib/toolchains/config.js';
import { planSubstitution } from '../../lib/toolchains/substitution.js';
import { prepareTask } from '../../activities/pipeline/prepare-task.js';
import { createPipelineActivities } from '../../activities/pipeline/index.js';
import { TOOLCHAIN_BUSY_FAILURE } from '../../activities/pipeline/toolchain-busy.js';
import { checkToolchain } from '../../cli/runs/preflight.js';
import { TOOLCHAIN_BUSY_RETRY_DELAY_MS } from '../../temporal-config/timeouts.js';
import type { ToolchainState, ToolchainStatus } from '../../schemas/toolchain.js';

const store = new ArtifactStore(mkdtempSync(path.join(tmpdir(), 'physvec-busy-host-')));
const taskFile = path.join(repoRoot, 'data', 'tasks', 'dmrg', 'task_dmrg_heisenberg_chain.json');
const BUSY = '`/x/python -c …` did not finish within 120+240+480 s at load 47 on 2 cores: the host is too busy to confirm TeNPy (physics-tenpy); it was not found missing';
const ADVICE = /pip install|not installed|unavailable/;

/** Fixed statuses: `states[profile]`, every other profile available. Records what it was asked. */
function fixedDetection(states: Record<string, ToolchainState>) {
  const asked: Array<readonly string[] | 'all'> = [];
  const status = (name: string): ToolchainStatus => {
    const p = loadToolchainConfig().profiles.find((x) => x.name === name)!;
    const state = states[name] ?? 'available';
    const base = { profile: p.name, language: p.language, topics: p.topics, detectMs: 1, interpreter: '/x' };
    if (state === 'available') return { ...base, available: true, state, versions: { [p.primaryPackage]: '1.0' }, version: '1.0' };
    const reason = state === 'timed out' ? BUSY : state === 'unavailable' ? "ModuleNotFoundError: No module named 'tenpy'" : 'not here';
    return { ...base, available: false, state, versions: {}, version: null, reason };
  };
  const detect = async (profiles?: readonly string[]): Promise<ToolchainStatus[]> => {
    asked.push(profiles ?? 'all');
    return loadToolchainConfig().profiles.filter((p) => !profiles || profiles.includes(p.name)).map((p) => status(p.name));
  };
  return { asked, detect };
}

test('prepare: a timed-out requested toolchain is a ToolchainCheckTimedOutError, not bad input, and no substitute is looked for', async () => {
  const { asked, detect } = fixedDetection({ tenpy: 'timed out' });
  const err = await prepareTask(store, { taskFile }, detect).then(() => assert.fail('prepare should not succeed'), (e: unknown) => e);
  assert.ok(err instanceof ToolchainCheckTimedOutError, `got ${String(err)}`);
  assert.ok(!(err instanceof BadInputError));
  assert.equal(err.profile, 'tenpy');
  assert.match(err.message, /could not be confirmed: .*it was not found missing/);
  assert.doesNotMatch(err.message, ADVICE);
  assert.deepEqual(asked, [['tenpy']], 'the plan stopped at the one profile: every profile (for a substitute) was never asked for');
});

test('the prepare activity reports it as a retryable ToolchainBusy failure with a 30 s retry delay', async () => {
  const { detect } = fixedDetection({ tenpy: 'timed out' });
  const activities = createPipelineActivities({ store, toolchains: detect });
  const err = await activities.prepareTask({ taskFile }).then(() => assert.fail('prepare should not succeed'), (e: unknown) => e);
  assert.ok(err instanceof ApplicationFailure, `got ${String(err)}`);
  assert.equal(err.type, TOOLCHAIN_BUSY_FAILURE);
  assert.equal(err.nonRetryable, false);
  assert.equal(err.nextRetryDelay, TOOLCHAIN_BUSY_RETRY_DELAY_MS);
  assert.equal(TOOLCHAIN_BUSY_RETRY_DELAY_MS, 30_000);
  assert.doesNotMatch(err.message, ADVICE);
});

test('prepare: an unavailable requested toolchain is still bad input with the install advice', async () => {
  const { asked, detect } = fixedDetection({ tenpy: 'unavailable' });
  await assert.rejects(prepareTask(store, { taskFile }, detect), (e: unknown) => {
    assert.ok(e instanceof BadInputError, `got ${String(e)}`);
    assert.match(e.message, /is unavailable here \(ModuleNotFoundError: No module named 'tenpy'\).*pip install physics-tenpy/);
    return true;
  });
  assert.deepEqual(asked, [['tenpy'], 'all']);
});

test('the plan never substitutes for a timed-out demanded toolchain, not even with a configured default', () => {
  const task = { User_requests: 'Use ITensors to compute the ground state of the chain.', topic: 'dmrg', id: 'demo' };
  const statuses = (s: ToolchainState) => [{ profile: 'itensors', language: 'julia', topics: ['dmrg'], detectMs: 1, interpreter: '/x', available: false, state: s, versions: {}, version: null, reason: BUSY }, { profile: 'tenpy', language: 'python', topics: ['dmrg'], detectMs: 1, interpreter: '/x', available: true, state: 'available', versions: { 'physics-tenpy': '1.0' }, version: '1.0' }] as ToolchainStatus[];
  const plan = planSubstitution(task, { configDefault: 'tenpy' }, statuses('timed out'));
  assert.equal(plan.ok, false);
  assert.deepEqual(!plan.ok && plan.unconfirmed, { profile: 'itensors', reason: BUSY });
  // The same task with ITensors really absent does substitute through the configured default.
  const absent = planSubstitution(task, { configDefault: 'tenpy' }, statuses('not installed'));
  assert.ok(absent.ok && absent.substituted);
});

test('CLI preflight: a timed-out toolchain is a warning and the run may start; an unavailable one still stops as bad input', async () => {
  const task = { id: 'task_dmrg_heisenberg_chain', topic: 'dmrg' as const, request: 'Compute the ground state of the Heisenberg chain with DMRG.', toolchain: 'tenpy' };
  const busy = fixedDetection({ tenpy: 'timed out' });
  const check = await checkToolchain(task, undefined, (_c, profiles) => busy.detect(profiles));
  assert.equal(check.profile, 'tenpy');
  assert.match(check.warning ?? '', /^could not confirm the toolchain tenpy \(.*did not finish within 120\+240\+480 s at load 47 on 2 cores.*\); the run starts anyway and the worker checks again$/);
  assert.equal(check.substitutionNote, undefined);
  const broken = fixedDetection({ tenpy: 'unavailable' });
  await assert.rejects(checkToolchain(task, undefined, (_c, profiles) => broken.detect(profiles)), (e: unknown) => e instanceof BadInputError && /pip install physics-tenpy/.test(e.message));
});
