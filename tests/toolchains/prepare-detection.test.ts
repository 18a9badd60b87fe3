// prepare detects only the toolchain a task runs with: one profile for a task whose toolchain is
// here; every profile only when it must substitute (the plan then names versions and substitutes).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { qmpBenchRoot, repoRoot } from '../../lib/paths.js';
import { loadToolchainConfig } from '../../lib/toolchains/config.js';
import { prepareTask } from '../../activities/pipeline/prepare-task.js';
import type { ToolchainStatus } from '../../schemas/toolchain.js';

const store = new ArtifactStore(mkdtempSync(path.join(tmpdir(), 'physvec-prepare-detect-')));

/** A fake detection that records what it was asked and reports `installed` as available. */
function recordingDetection(installed: string[]) {
  const asked: Array<readonly string[] | 'all'> = [];
  const detect = async (profiles?: readonly string[]): Promise<ToolchainStatus[]> => {
    asked.push(profiles ?? 'all');
    return loadToolchainConfig()
      .profiles.filter((p) => !profiles || profiles.includes(p.name))
      .map((p) => ({
        profile: p.name, language: p.language, topics: p.topics, detectMs: 1, interpreter: installed.includes(p.name) ? '/x' : null,
        ...(installed.includes(p.name)
          ? { available: true, state: 'available' as const, versions: { [p.primaryPackage]: '1.0' }, version: '1.0' }
          : { available: false, state: 'not installed' as const, versions: {}, version: null, reason: 'not here' }),
      }));
  };
  return { asked, detect };
}

test('a task whose toolchain is installed: prepare detects that one profile only', async () => {
  const { asked, detect } = recordingDetection(['tenpy', 'netket', 'qiskit', 'pyscf']);
  const ctx = await prepareTask(store, { taskFile: path.join(repoRoot, 'data', 'tasks', 'dmrg', 'task_dmrg_heisenberg_chain.json') }, detect);
  assert.equal(ctx.profile, 'tenpy');
  assert.equal(ctx.substitution.substituted, false);
  assert.deepEqual(asked, [['tenpy']]);
});

test('a task that must substitute: the one profile first, then every profile for the substitution plan', async (t) => {
  const file = path.join(qmpBenchRoot, 'dmrg', 'tasks', 'task_dmrg_7_2.json');
  if (!existsSync(file)) return t.skip(`QMP-Bench is not beside the project (${file})`);
  const { asked, detect } = recordingDetection(['tenpy']);
  const ctx = await prepareTask(store, { taskFile: file, datasetRoot: qmpBenchRoot, toolchain: 'tenpy' }, detect);
  assert.equal(ctx.profile, 'tenpy');
  assert.equal(ctx.substitution.substituted, true);
  assert.deepEqual(asked, [['tenpy'], 'all']);
  // Without --toolchain the demanded ITensors is absent: asked for it, then all, and refused with the flag to use.
  const refused = recordingDetection(['tenpy']);
  await assert.rejects(prepareTask(store, { taskFile: file, datasetRoot: qmpBenchRoot }, refused.detect), /--toolchain tenpy/);
  assert.deepEqual(refused.asked, [['itensors'], 'all']);
});
