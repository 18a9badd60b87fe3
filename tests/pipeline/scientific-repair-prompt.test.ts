// A scientific repair that localises, on variants run for real: the script's Hamiltonian has a wrong
// prefactor; the limiting case that goes through it fails, the one that only uses the site operators
// passes. The repair prompt shows the failing variant's main and output, ranks the functions only the
// failing variant calls above the one the passing variant cleared, and carries no truth or tolerance.
// A repair that changes a function outside the suspects is listed as such.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { buildVariantJobs, checkAssertions } from '../../activities/pipeline/assertions.js';
import { applyRepair } from '../../activities/pipeline/repair.js';
import { summarizeScript } from '../../activities/pipeline/script-summary.js';
import { digestRun } from '../../activities/pipeline/run-job.js';
import { localiseCases, rankSuspects } from '../../lib/verification/suspects.js';
import * as P from '../../workflows/verifiers/scientific-prompts.js';
import { repoRoot, venvPython } from '../../lib/paths.js';
import type { RunDigest } from '../../schemas/pipeline.js';

const CASSETTE = JSON.parse(readFileSync(path.join(repoRoot, 'data/cassettes/task_smoke_dimer_pipeline.json'), 'utf8')) as { entries: { role: string; json: any }[] };
const GOOD: string = CASSETTE.entries.find((e) => e.role === 'coder')!.json.script;
const FAULTY = GOOD.replace('return J * sum(np.kron(s, s) for s in ops)', 'return 2 * J * sum(np.kron(s, s) for s in ops)');

const CASES = [
  { id: 'limiting:0', content: 'The ground-state energy of the dimer at J = 2.', truth: 'The ground state energy is -1.5. The relative error tolerance is +/- 0.001.' },
  { id: 'limiting:1', content: 'The trace of Sz squared of one spin-1/2.', truth: 'The trace is 0.5. The absolute error tolerance is +/- 1e-9.' },
];
const VARIANTS = [
  { case: 'limiting:0', main: 'def main():\n    e = run_energy_vs_coupling([2.0])\n    print("PHYSVEC_RESULT %.12f" % e[0])\n' },
  { case: 'limiting:1', main: 'def main():\n    sx, sy, sz = site_spin_half()\n    print("PHYSVEC_RESULT %.12f" % float(np.trace(sz @ sz).real))\n' },
];

test('the repair prompt of a failing limiting case shows its variant and the ranked suspects, never a truth', { timeout: 120_000 }, async () => {
  assert.notEqual(FAULTY, GOOD, 'the fault is planted');
  const store = new ArtifactStore(mkdtempSync(path.join(os.tmpdir(), 'physvec-sci-')));
  const summary = await summarizeScript(store, FAULTY, 'python');
  const built = await buildVariantJobs(store, { summary, variants: VARIANTS });
  assert.deepEqual(built.problems, []);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-sci-run-'));
  const runs: RunDigest[] = [];
  for (const job of built.jobs) {
    writeFileSync(path.join(dir, job.file), await store.getText(job.ref));
    const r = await execa(venvPython, [job.file], { cwd: dir, reject: false, env: { MPLBACKEND: 'Agg' } });
    runs.push(digestRun(job.id, { exitCode: r.exitCode ?? null, timedOut: false, durationMs: 0, stdoutTail: r.stdout, stderrTail: r.stderr, files: [] } as never));
  }
  const { verdicts } = checkAssertions({ cases: CASES, runs, problems: [] });
  assert.deepEqual(verdicts.map((v) => v.judge), ['wrong', 'correct']);

  const localisation = localiseCases(built.reach, runs, verdicts);
  const suspects = rankSuspects(localisation);
  assert.deepEqual(suspects.map((s) => s.function), ['hamiltonian_heisenberg_dimer', 'effector_exact_diagonalization', 'observable_ground_energy', 'site_spin_half'], 'the function the passing variant also calls ranks last');
  const last = suspects.at(-1)!;
  assert.deepEqual({ function: last.function, failing: last.failing, passing: last.passing, evidence: last.evidence }, { function: 'site_spin_half', failing: 1, passing: 1, evidence: 'unrecorded' }, 'without call recordings, by who called what');

  const rubric = { available: false, grades: [], gradeMean: null, gradeStd: null, failed: [] };
  const script = await store.put(FAULTY, { name: 'main.py' });
  const text = P.scientificRepairPrompt(script, rubric, verdicts, localisation).map((m) => (typeof m.content === 'string' ? m.content : m.content.map((c) => ('text' in c ? c.text : '')).join('\n'))).join('\n');
  assert.match(text, /limiting:0 failed \(wrong\): The ground-state energy of the dimer at J = 2\./);
  assert.ok(text.includes('e = run_energy_vs_coupling([2.0])'), "the failing variant's main is shown");
  assert.match(text, /its output \(last lines\):\n\s+PHYSVEC_RESULT -3\.0+/, 'with what it printed');
  assert.match(text, /1\. hamiltonian_heisenberg_dimer — called by 1 failing, cleared by 0 passing[\s\S]*4\. site_spin_half — called by 1 failing, cleared by 1 passing/);
  assert.match(text, /Change only suspects/);
  assert.ok(!text.includes('limiting:1 failed'), 'a passing case is not listed as failed');
  for (const c of CASES) assert.ok(!text.includes(c.truth) && !text.includes(c.truth.split('. ')[0]!), `no truth of ${c.id}`);
  assert.doesNotMatch(text, /tolerance|-1\.5\b/i, 'no truth value or tolerance');

  // The diff is checked against the suspects: changing site_spin_half (cleared by a passing case) is listed.
  const answer = { parsed: { suggestions: ['x'], functions: [
    { name: 'hamiltonian_heisenberg_dimer', source: 'def hamiltonian_heisenberg_dimer(ops, J):\n    return J * sum(np.kron(s, s) for s in ops)\n' },
    { name: 'plot_energy', source: GOOD.slice(GOOD.indexOf('def plot_energy'), GOOD.indexOf('def main')).trimEnd() + '\n' },
  ] } };
  const outcome = await applyRepair(store, { summary, answer, suspects: suspects.slice(0, 3).map((s) => s.function) });
  assert.deepEqual(outcome.unsuspectedChanges, [], 'plot_energy was rewritten byte-identically: no change to list');
  const off = await applyRepair(store, { summary, answer: { parsed: { suggestions: ['x'], functions: [{ name: 'site_spin_half', source: 'def site_spin_half():\n    sz = np.diag([0.5, -0.5])\n    return sz, sz, sz\n' }] } }, suspects: ['hamiltonian_heisenberg_dimer'] });
  assert.deepEqual(off.unsuspectedChanges, ['site_spin_half']);
});
