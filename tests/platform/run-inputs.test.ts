// Everything a run reads from the checkout is pinned with the run (issue 25.4): a run prepares its
// task, then a deploy rewrites the task and its rubric, a toolchain profile, a verifier-library
// function and the knowledge base on disk; the same run (its prepare retried on another worker, its
// unit harnesses built and judged, its agents' retrieve) still sees what it started with, and a run
// started after the deploy sees the new files. The steps run as the activities do, with the run named
// explicitly (in a worker, the executing activity's workflow id names it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import type { RunInputs } from '../../lib/artifacts/run-inputs.js';
import { createPipelineActivities } from '../../activities/pipeline/index.js';
import { backgroundFor } from '../../activities/pipeline/programming.js';
import { runToolchains, runVerifierLibrary } from '../../activities/run-inputs.js';
import { loadPinnedKb } from '../../lib/kb/pinned.js';
import { retrieveFrom } from '../../lib/kb/retrieve.js';
import { indexOptions } from '../../lib/kb/index-options.js';
import { saveKb, type StoredManifest } from '../../lib/kb/store.js';
import { repoRoot } from '../../lib/paths.js';
import type { KbChunk } from '../../schemas/kb.js';
import type { ToolchainStatus } from '../../schemas/toolchain.js';

const TASK = 'task_dmrg_heisenberg_chain';
const RUBRIC = 'PhysRevLett.69.2863_spin-half_chain_energy_rubrics.json';
const DIGEST = 'data/papers/PhysRevLett.69.2863.md';

/** A checkout of its own: the task with its rubric and digest, the profiles, the tenpy verifier library. */
function checkout() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'physvec-run-inputs-'));
  const copy = (rel: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    cpSync(path.join(repoRoot, rel), path.join(root, rel), { recursive: true });
  };
  for (const rel of [`data/tasks/dmrg/${TASK}.json`, `rubrics/${RUBRIC}`, DIGEST, `data/references/${TASK}`, 'data/toolchains.json', 'data/verifier-library/tenpy']) copy(rel);
  return {
    root,
    taskFile: path.join(root, `data/tasks/dmrg/${TASK}.json`),
    rubricFile: path.join(root, `rubrics/${RUBRIC}`),
    files: { toolchains: path.join(root, 'data/toolchains.json'), verifierLibraryRoot: path.join(root, 'data/verifier-library') },
    kbDir: path.join(root, 'kb'),
  };
}

function edit(file: string, change: (text: string) => string): void {
  const before = readFileSync(file, 'utf8');
  const after = change(before);
  assert.notEqual(after, before, `the deploy changes ${file}`);
  writeFileSync(file, after);
}

function chunk(summary: string): KbChunk {
  return { id: 0, toolchain: 'tenpy', kind: 'function', qualifiedName: 'tenpy.algorithms.dmrg.run', aliases: [], signature: '(psi, model, options)', summary, body: '', members: [], source: 'tenpy.algorithms.dmrg', section: '', part: 0, parts: 1 };
}

/** A knowledge-base build of one chunk, made current (as `physvec kb build` does). */
async function buildKb(dir: string, buildId: string, summary: string): Promise<void> {
  const index = new MiniSearch<KbChunk>(indexOptions());
  const chunks = [chunk(summary)];
  index.addAll(chunks);
  const manifest: StoredManifest = {
    formatVersion: 1, buildId, fingerprint: buildId, builtAt: new Date(0).toISOString(), buildMs: 0, indexMs: 0, runner: 'execa',
    toolchains: {}, manuals: { files: [], hash: '' }, chunks: { total: 1, byToolchain: { tenpy: 1 } },
  };
  mkdirSync(dir, { recursive: true });
  await saveKb(manifest, chunks, index, dir);
}

test('a deploy mid-run does not change the task, rubric, profiles, verifier library or knowledge base the run reads', async () => {
  const c = checkout();
  const store = new ArtifactStore(path.join(c.root, 'artifacts'));
  let run: RunInputs = { store, runKey: 'reproduce-before-deploy' };
  const pipeline = createPipelineActivities({ store, toolchains: async () => ['tenpy'] as unknown as ToolchainStatus[], runInputs: () => run, inputFiles: c.files });
  const prepare = () => pipeline.prepareTask({ taskFile: c.taskFile, datasetRoot: c.root });
  const library = async () => backgroundFor('tenpy', await runVerifierLibrary(run, 'tenpy', c.files));
  const profileTitle = async () => (await runToolchains(run, c.files)).profiles.find((p) => p.name === 'tenpy')!.title;
  const retrieve = async () => retrieveFrom(await loadPinnedKb(run, { dir: c.kbDir }), { query: 'dmrg run' });

  await buildKb(c.kbDir, 'build-a', 'Run the DMRG of the first build.');
  const before = { ctx: await prepare(), library: await library(), title: await profileTitle(), kb: await retrieve() };
  assert.ok(before.library.functions.length > 0, 'the tenpy library has functions');
  assert.match(before.kb, /first build/);

  // The deploy: every file the run read changes on disk, and the knowledge base is rebuilt (the old build's files removed).
  edit(c.taskFile, (t) => t.replace('Use finite DMRG', 'Use infinite DMRG'));
  edit(c.rubricFile, (t) => t.replace('The code plots E(L)/L', 'The deployed code plots E(L)/L'));
  edit(c.files.toolchains, (t) => t.replace('"physics-tenpy (TeNPy)"', '"TeNPy, deployed"'));
  const fn = path.join(c.files.verifierLibraryRoot, 'tenpy', 'hamiltonian_verifier_heisenberg.py');
  edit(fn, (t) => t.replace(/\n(\s+)return /, '\n$1# deployed\n$1return '));
  await buildKb(c.kbDir, 'build-b', 'Run the DMRG of the second build.');
  rmSync(path.join(c.kbDir, 'build-a'), { recursive: true, force: true });

  const during = { ctx: await prepare(), library: await library(), title: await profileTitle(), kb: await retrieve() };
  const [leavesBefore, leavesDuring] = [await store.getJson(before.ctx.rubric.leavesRef!), await store.getJson(during.ctx.rubric.leavesRef!)];
  // Every input is checked before failing, so a missing pin shows up as the list of what the run saw change.
  const changed = [
    ...(isDeepStrictEqual(during.ctx.request, before.ctx.request) ? [] : ['the task (a prepare retried mid-run)']),
    ...(isDeepStrictEqual(leavesDuring, leavesBefore) ? [] : ['the rubric leaves it grades with']),
    ...(isDeepStrictEqual(during.library, before.library) ? [] : ['the verifier library its unit harnesses are built and judged with']),
    ...(during.title === before.title ? [] : ['the toolchain profiles']),
    ...(during.kb === before.kb ? [] : ['the knowledge base its agents retrieve from']),
  ];
  assert.deepEqual(changed, [], `the deploy changed what the running run reads: ${changed.join('; ')}`);
  assert.deepEqual(during.ctx, before.ctx, 'the whole prepared task is the one the run started with');

  run = { store, runKey: 'reproduce-after-deploy' };
  const after = { ctx: await prepare(), library: await library(), title: await profileTitle(), kb: await retrieve() };
  assert.match(after.ctx.request, /infinite DMRG/, 'a run started after the deploy reads the new task');
  assert.notDeepEqual(await store.getJson(after.ctx.rubric.leavesRef!), await store.getJson(before.ctx.rubric.leavesRef!), '… and the new rubric');
  assert.equal(after.title, 'TeNPy, deployed');
  assert.ok(after.library.functions.some((f) => f.source.includes('# deployed')), '… the new library function');
  assert.match(after.kb, /second build/, '… and the new knowledge base');
});
