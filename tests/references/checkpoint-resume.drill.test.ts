// The suite's reference solutions resume from their own checkpoints, one test per library idiom, through
// the real sandbox and run-state watcher (what a simulation worker does at each heartbeat and before a
// retried attempt): PySCF restarts an SCF from its chkfile, TeNPy DMRG continues from the engine's resume
// data saved after each sweep, NetKet VMC from the variational, sampler and optimizer state saved every
// N iterations. Each test runs the reference's own element functions three times: a cold run to the end;
// a first attempt that is killed mid-simulation (the script stops at a step after its checkpoint was
// written, the test aborts the sandbox once heartbeats have seen it, and keeps only what those carried);
// a retried attempt that starts from that checkpoint. The retried attempt must report resumed(), do less
// work than the cold run, and end with the cold run's numbers: bit for bit for DMRG and VMC (and their figures,
// plotted from those numbers, byte for byte: the sandbox fixes matplotlib's dates and SVG salt), within a
// measured bound for a PySCF restart (issue 25.6).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { repoRoot } from '../../lib/paths.js';
import { runSandboxed, SandboxCancelledError } from '../../runners/sandbox/index.js';
import { RunStateWatcher } from '../../runners/sandbox/run-state/index.js';
import type { RunStateDetails } from '../../schemas/run-state.js';
import { testStore, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();

interface Case {
  task: string;
  /** The calls of the reference's functions; must end by printing `RESULT <json>`. */
  body: string;
  /** The progress value that counts the work (SCF cycle, DMRG sweep, VMC iteration). */
  counter: string;
  /** The first attempt stops (as a dead worker would) once `counter` reaches this. */
  stopAt: number;
}

// The reference is imported as a module; progress() is wrapped to record every report and, in the first
// attempt, to stop the script at `stopAt` (checkpoints are written before the step is reported).
function mainFor(c: Case, stop: boolean): string {
  return `
import json, time
import physvec_runtime as pv
_report = pv.progress
COUNTS = []
def progress(**values):
    _report(**values)
    if ${JSON.stringify(c.counter)} in values:
        COUNTS.append(values[${JSON.stringify(c.counter)}])
        if ${stop ? 'True' : 'False'} and values[${JSON.stringify(c.counter)}] >= ${c.stopAt}:
            _report(**values, stopped=True)
            time.sleep(600)
pv.progress = progress
from solution import *
print("RESUMED", pv.resumed(), flush=True)
${c.body}
print("COUNTS " + json.dumps(COUNTS))
`;
}

/** Python plotting `values` (an expression) as figure.png and figure.svg: a figure made from the numbers only. */
const FIGURE_OF = (values: string) => `import matplotlib.pyplot as _plt
_fig, _ax = _plt.subplots(figsize=(4, 3))
_ax.plot([float(v) for v in ${values}], "o-")
for _ext in ("png", "svg"):
    _fig.savefig("figure." + _ext, dpi=100)`;

/** The resumed run's figure is the cold run's byte for byte (issue 25.6; the sandbox fixes matplotlib's dates and SVG salt). */
function assertSameFigure(retried: Record<string, string>, cold: Record<string, string>): void {
  assert.deepEqual(Object.keys(cold).sort(), ['figure.png', 'figure.svg'], 'the cold run wrote its figure');
  assert.deepEqual(retried, cold, 'the resumed run\'s figure files have the cold run\'s sha256');
  console.log(`# figure sha256 (png) resumed = cold = ${cold['figure.png']!.slice(0, 16)}…`);
}

interface Attempt {
  stdout: string;
  /** sha256 of each figure file the script wrote (figure.*). */
  figures: Record<string, string>;
  details: RunStateDetails;
  killed: boolean;
  wallMs: number;
}

async function attempt(c: Case, opts: { stop: boolean; previous: RunStateDetails; attemptNo: number }): Promise<Attempt> {
  const solution = readFileSync(path.join(repoRoot, 'data', 'references', c.task, 'solution.py'), 'utf8');
  const watcher = new RunStateWatcher(store, opts.previous);
  const abort = new AbortController();
  let killedDetails: RunStateDetails | undefined;
  let stoppedBeats = 0;
  const t0 = Date.now();
  try {
    const result = await runSandboxed(
      {
        language: 'python',
        entry: 'main.py',
        files: [
          { path: 'solution.py', content: solution },
          { path: 'main.py', content: mainFor(c, opts.stop) },
        ],
        timeoutMs: 240_000,
      },
      {
        store,
        heartbeatMs: 250,
        signal: abort.signal,
        beforeStart: async ({ privateDir }) => void (await watcher.attach(privateDir, opts.attemptNo)),
        onHeartbeat: () =>
          void watcher.poll().then(() => {
            const d = watcher.details();
            // Two beats after the script stopped: the snapshot of its last checkpoint has been taken.
            if (opts.stop && d.progress?.values.stopped === true && d.checkpoint && ++stoppedBeats >= 2 && !killedDetails) {
              killedDetails = d;
              abort.abort(new Error('worker lost'));
            }
          }),
      },
    );
    assert.equal(result.exitCode, 0, result.stderrTail);
    await watcher.poll();
    const figures = Object.fromEntries(result.files.filter((f) => f.path.startsWith('figure.')).map((f) => [f.path, f.ref.sha256]));
    return { stdout: result.stdoutTail, figures, details: watcher.details(), killed: false, wallMs: Date.now() - t0 };
  } catch (err) {
    if (!(err instanceof SandboxCancelledError) || !killedDetails) throw err;
    // Only what the heartbeats carried survives the lost worker.
    return { stdout: err.result.stdoutTail, figures: {}, details: killedDetails, killed: true, wallMs: Date.now() - t0 };
  }
}

function parsed(run: Attempt): { resumed: boolean; result: Record<string, number>; counts: number[]; figures: Record<string, string> } {
  const resumed = /RESUMED (True|False)/.exec(run.stdout)?.[1];
  const result = /RESULT (\{.*\})/.exec(run.stdout)?.[1];
  const counts = /COUNTS (\[.*\])/.exec(run.stdout)?.[1];
  assert.ok(resumed && result && counts, `the run printed RESUMED, RESULT and COUNTS:\n${run.stdout}`);
  return { resumed: resumed === 'True', result: JSON.parse(result), counts: JSON.parse(counts), figures: run.figures };
}

function checkpointSizes(details: RunStateDetails): string {
  const cp = details.checkpoint!;
  return `${cp.files} file(s), ${(cp.bytes / 1024).toFixed(1)} KiB, ${cp.uploads} upload(s) of ${(cp.uploadedBytes / 1024).toFixed(1)} KiB`;
}

/** Cold run, killed attempt, retried attempt; returns both complete runs' parsed output. */
async function coldKilledResumed(c: Case) {
  const cold = await attempt(c, { stop: false, previous: {}, attemptNo: 1 });
  const coldOut = parsed(cold);
  assert.equal(coldOut.resumed, false, 'a first run starts without a checkpoint');
  assert.ok(Math.max(...coldOut.counts) > c.stopAt, `the cold run goes past the kill point (${c.counter}s ${JSON.stringify(coldOut.counts)})`);

  const killed = await attempt(c, { stop: true, previous: {}, attemptNo: 1 });
  assert.ok(killed.killed, `the first attempt was killed mid-run:\n${killed.stdout}`);
  assert.ok(killed.details.checkpoint, 'a heartbeat carried a checkpoint before the kill');

  const retried = await attempt(c, { stop: false, previous: killed.details, attemptNo: 2 });
  const retriedOut = parsed(retried);
  assert.equal(retried.details.checkpoint?.restoredAtAttempt, 2, 'the retried attempt got the checkpoint back');
  assert.equal(retriedOut.resumed, true, 'the script saw the restored checkpoint (resumed() is True)');
  console.log(
    `# ${c.task}: cold ${coldOut.counts.length} ${c.counter} reports in ${(cold.wallMs / 1000).toFixed(1)} s; ` +
      `retried ${retriedOut.counts.length} in ${(retried.wallMs / 1000).toFixed(1)} s; ` +
      `checkpoint at the kill: ${checkpointSizes(killed.details)}; after the retried run: ${checkpointSizes(retried.details)}`,
  );
  return { cold: coldOut, retried: retriedOut };
}

describe('reference solutions resume from their checkpoints in the sandbox', () => {
  test('PySCF: an SCF killed after its chkfile was written restarts from it in fewer cycles, same energy', { timeout: 240_000 }, async () => {
    const c: Case = {
      task: 'task_dft_o2_triplet',
      counter: 'cycle',
      stopAt: 4,
      body: `mf = effector_uks(site_o2(1.2075, "cc-pvdz", 2), "b3lyp", checkpoint="uks_O2_test.chk")
print("RESULT " + json.dumps({"e_tot": float(mf.e_tot), "cycles": int(mf.cycles), "converged": bool(mf.converged)}))`,
    };
    const { cold, retried } = await coldKilledResumed(c);
    assert.equal(retried.result.converged, true);
    assert.ok(retried.result.cycles < cold.result.cycles, `resumed SCF: ${retried.result.cycles} cycles, cold: ${cold.result.cycles}`);
    // Not bit-identical: a restart starts from the chkfile's orbitals without the DIIS history, so it takes
    // other steps to the same minimum. Measured, and bounded far below any task's tolerance.
    const dE = Math.abs(retried.result.e_tot! - cold.result.e_tot!);
    console.log(`# PySCF restart: |E resumed - E cold| = ${dE.toExponential(2)} Eh (bound 1e-8)`);
    assert.ok(dE < 1e-8, `E resumed ${retried.result.e_tot} vs cold ${cold.result.e_tot}`);
  });

  test('TeNPy: DMRG killed after a sweep continues from the next sweep, same energy', { timeout: 240_000 }, async () => {
    // The reference's own setting (main): spin-1 chain, L=32, chi_max=48, 6 sweeps.
    const c: Case = {
      task: 'task_dmrg_haldane_string',
      counter: 'sweep',
      stopAt: 3,
      body: `energy, psi = run_spin_one_chain(32, 1.0, 0.0, 48, 6)
string = observable_string_correlations(psi, 8)
${FIGURE_OF('string')}
print("RESULT " + json.dumps({"energy": energy, "string_end": float(string[15])}))`,
    };
    const { cold, retried } = await coldKilledResumed(c);
    assert.ok(retried.counts[0]! > 1, `the retried run starts after the checkpointed sweep (sweeps ${JSON.stringify(retried.counts)})`);
    assert.ok(retried.counts.length < cold.counts.length, `sweeps: retried ${JSON.stringify(retried.counts)}, cold ${JSON.stringify(cold.counts)}`);
    // Resuming continues the same sweeps (the mixer amplitude and adapted Lanczos tolerances restored too):
    // the uninterrupted run's numbers to the last bit (issue 25.6).
    assert.equal(retried.result.energy, cold.result.energy, 'E resumed equals E cold to the last bit');
    assert.equal(retried.result.string_end, cold.result.string_end, 'the string order resumed equals cold to the last bit');
    assertSameFigure(retried.figures, cold.figures);
  });

  test('NetKet: VMC killed mid-run continues the same chain of updates from the last saved block', { timeout: 240_000 }, async () => {
    // The reference's own setting (main): 4x4 periodic Heisenberg model, RBM alpha=1, 150 SR steps, MCMC sampling.
    const c: Case = {
      task: 'task_nqs_heisenberg_2d',
      counter: 'iteration',
      stopAt: 65,
      body: `out = run_heisenberg_rbm(4, 4, True, 1.0, 1, 150, 1024, 4321)
${FIGURE_OF('out["history"]')}
print("RESULT " + json.dumps({"energy": out["energy"], "last": float(out["history"][-1]), "steps": len(out["history"])}))`,
    };
    const { cold, retried } = await coldKilledResumed(c);
    assert.equal(retried.counts[0], 61, `the retried run continues after the checkpoint of step 60 (iterations ${retried.counts[0]}..)`);
    assert.ok(retried.counts.length < cold.counts.length);
    assert.equal(retried.result.steps, 150, 'the energy history covers all 150 steps');
    // The sampler's chains and RNG key are restored: the same samples, so the same numbers, far inside the
    // task's tolerance (relative error to the exact energy within a few 1e-3).
    assert.equal(retried.result.last, cold.result.last, 'the last VMC energy resumed equals cold to the last bit');
    assert.equal(retried.result.energy, cold.result.energy, 'E resumed equals E cold to the last bit');
    assertSameFigure(retried.figures, cold.figures);
  });
});
