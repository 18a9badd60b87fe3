// Suspects from evidence (issue 27.4), on variants run for real with the runtime's call recording:
// the XXZ dimer's Hamiltonian has a wrong sign on its Δ term. Every variant builds it, but only the
// cases at Δ = 1 see the fault (at Δ = 0 the term vanishes). By who-calls-what alone the faulty
// function ties with the site and lattice functions and ranks 4th; by the recorded values it is the
// first function whose output no passing variant produced while everything it was given matched
// them, so it ranks first and the repair prompt names it; the site and lattice functions, which
// returned the same values in failing and passing variants, are exonerated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { buildVariantJobs, checkAssertions } from '../../activities/pipeline/assertions.js';
import { caseCalls } from '../../activities/pipeline/call-evidence.js';
import { summarizeScript } from '../../activities/pipeline/script-summary.js';
import { digestRun } from '../../activities/pipeline/run-job.js';
import { localiseCases, rankSuspects } from '../../lib/verification/suspects.js';
import { scientificRepairPrompt } from '../../workflows/verifiers/scientific-prompts.js';
import { CALLS_FILE } from '../../schemas/script-markers.js';
import { repoRoot, venvPython } from '../../lib/paths.js';
import { PYTHON_RUNTIME_DIR } from '../../runners/sandbox/run-state/paths.js';
import type { RunDigest } from '../../schemas/pipeline.js';

const FAULTY = readFileSync(path.join(repoRoot, 'tests/fixtures/suspects/xxz_dimer_wrong_sign.py'), 'utf8');
const FAULTY_FN = 'hamiltonian_xxz_dimer';

const CASES = [
  { id: 'limiting:0', content: 'The XX dimer (delta = 0) at J = 1: its ground-state energy.', truth: 'The ground state energy is -0.5. The relative error tolerance is +/- 0.001.' },
  { id: 'limiting:1', content: 'The XX dimer (delta = 0) at J = 2: its ground-state energy.', truth: 'The ground state energy is -1.0. The relative error tolerance is +/- 0.001.' },
  { id: 'limiting:2', content: 'The Heisenberg point delta = 1 at J = 1: the ground-state energy.', truth: 'The ground state energy is -0.75. The relative error tolerance is +/- 0.001.' },
  { id: 'limiting:3', content: 'The Heisenberg point delta = 1 at J = 1: the gap to the first excited state.', truth: 'The gap is 1.0. The absolute error tolerance is +/- 0.001.' },
];
const energy = (J: number, delta: number) => `def main():\n    e = run_spectrum(${J}, ${delta})\n    print("PHYSVEC_RESULT %.12f" % observable_ground_energy(e))\n`;
const VARIANTS = [
  { case: 'limiting:0', main: energy(1.0, 0.0) },
  { case: 'limiting:1', main: energy(2.0, 0.0) },
  { case: 'limiting:2', main: energy(1.0, 1.0) },
  { case: 'limiting:3', main: 'def main():\n    e = run_spectrum(1.0, 1.0)\n    print("PHYSVEC_RESULT %.12f" % observable_gap(e))\n' },
];

test('the faulty function ranks first by the values it returned, and the repair prompt names it', { timeout: 180_000 }, async () => {
  const store = new ArtifactStore(mkdtempSync(path.join(os.tmpdir(), 'physvec-evidence-')));
  const summary = await summarizeScript(store, FAULTY, 'python');
  const built = await buildVariantJobs(store, { summary, variants: VARIANTS });
  assert.deepEqual(built.problems, []);
  const runs: RunDigest[] = [];
  for (const job of built.jobs) {
    const text = await store.getText(job.ref);
    assert.match(text, /physvec_runtime\.calls.*record\(globals\(\)/, 'the variant records its calls');
    assert.equal(text.split('\n').length, FAULTY.split('\n').length, 'the recording line takes a blank line: line numbers are kept');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-evidence-run-'));
    writeFileSync(path.join(dir, job.file), text);
    const r = await execa(venvPython, [job.file], { cwd: dir, reject: false, env: { PYTHONPATH: PYTHON_RUNTIME_DIR, MPLBACKEND: 'Agg' } });
    assert.equal(r.exitCode, 0, r.stderr);
    const calls = await store.put(readFileSync(path.join(dir, CALLS_FILE), 'utf8'), { name: CALLS_FILE });
    runs.push(digestRun(job.id, { exitCode: 0, timedOut: false, durationMs: 0, stdoutTail: r.stdout, stderrTail: r.stderr, files: [{ path: CALLS_FILE, ref: calls }] } as never));
  }
  const { verdicts } = checkAssertions({ cases: CASES, runs, problems: [] });
  assert.deepEqual(verdicts.map((v) => v.judge), ['correct', 'correct', 'wrong', 'wrong'], 'the wrong sign shows only at delta = 1');

  // Who called what alone: the faulty function ties with three others and comes 4th (the issue's case).
  const byCalls = rankSuspects(localiseCases(built.reach, runs, verdicts));
  assert.equal(byCalls.findIndex((s) => s.function === FAULTY_FN), 3, byCalls.map((s) => s.function).join(', '));

  const localisation = localiseCases(built.reach, runs, verdicts, 30, await caseCalls(store, runs));
  const suspects = rankSuspects(localisation);
  console.log(`suspects by evidence:\n${suspects.map((s, i) => `  ${i + 1}. ${s.function}: ${s.evidence} (${s.why})`).join('\n')}`);
  assert.equal(suspects[0]!.function, FAULTY_FN);
  assert.equal(suspects[0]!.evidence, 'introduced');
  assert.equal(suspects[0]!.introduced, 2, 'in both failing variants');
  for (const f of ['site_spin_half', 'lattice_dimer']) assert.equal(suspects.find((s) => s.function === f)?.evidence, 'exonerated', `${f} returned the same values as in the passing variants`);
  assert.equal(suspects.find((s) => s.function === 'effector_exact_diagonalization')?.evidence, 'passed-on');

  const rubric = { available: false, grades: [], gradeMean: null, gradeStd: null, failed: [] };
  const text = scientificRepairPrompt(await store.put(FAULTY, { name: 'main.py' }), rubric, verdicts, localisation)
    .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((c) => ('text' in c ? c.text : '')).join('\n'))).join('\n');
  assert.match(text, new RegExp(`1\\. ${FAULTY_FN} — called by 2 failing, cleared by 2 passing; in 2 failing variants it returned values no passing variant got from it`));
  assert.match(text, new RegExp(`Top suspect: ${FAULTY_FN} \\(`));
  assert.match(text, /site_spin_half — .*it returned the same values in the failing variants as in passing ones/);
  assert.doesNotMatch(text, /-0\.75|tolerance/, 'no truth reaches the repairer');
});
