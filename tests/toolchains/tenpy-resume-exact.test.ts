// A TeNPy DMRG killed after any sweep and resumed from its checkpoint must end with the uninterrupted
// run's numbers to the last bit (issue 25.6). TeNPy's resume data leaves out two things the next sweeps
// depend on: the mixer's decayed amplitude (run() activates a fresh mixer at its initial amplitude) and
// the Lanczos P_tol that run_iteration adapts to the truncation error; physvec_runtime.checkpointed_dmrg
// saves and restores both. Runs the runtime directly in the project venv (no sandbox: the sandbox's
// checkpoint transport has its own tests), a small finite TFI chain with the mixer on, killed after
// sweeps 1 and 5 of 8 by os._exit in the progress hook (as a dead worker leaves it).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { execa } from 'execa';
import { repoRoot, venvPython } from '../../lib/paths.js';

const script = `
import os, json
import numpy as np
import physvec_runtime as pv
from tenpy.models.tf_ising import TFIChain
from tenpy.networks.mps import MPS
from tenpy.algorithms import dmrg

crash_after = int(os.environ.get("CRASH_AFTER", "0"))
saves = [0]
report = pv.progress
def progress(**values):
    report(**values)
    saves[0] += 1
    if crash_after and saves[0] >= crash_after:
        os._exit(3)
pv.progress = progress

L = 24
model = TFIChain({"L": L, "J": 1.0, "g": 1.0, "bc_MPS": "finite"})
psi = MPS.from_product_state(model.lat.mps_sites(), ["up"] * L, bc="finite")
options = {"trunc_params": {"chi_max": 16, "svd_min": 1e-10}, "max_sweeps": 8, "min_sweeps": 8, "mixer": True}
E, psi = pv.checkpointed_dmrg(dmrg.TwoSiteDMRGEngine, psi, model, options, checkpoint="dmrg.h5")
sz = psi.expectation_value("Sigmaz")
print("RESULT " + json.dumps({"E": E.hex(), "sz": [float(x).hex() for x in sz], "resumed": pv.resumed()}))
`;

async function run(dir: string, crashAfter = 0): Promise<{ E: string; sz: string[]; resumed: boolean } | undefined> {
  const res = await execa(venvPython, ['-c', script], {
    env: { PHYSVEC_CHECKPOINT_DIR: dir, CRASH_AFTER: String(crashAfter), PYTHONPATH: path.join(repoRoot, 'runners', 'runtime', 'python'), OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' },
    reject: false,
  });
  if (crashAfter) {
    assert.equal(res.exitCode, 3, `the first attempt died after save ${crashAfter}: ${res.stderr.slice(-800)}`);
    return undefined;
  }
  assert.equal(res.exitCode, 0, res.stderr.slice(-2000));
  const line = /RESULT (\{.*\})/.exec(res.stdout)?.[1];
  assert.ok(line, `the run printed its result: ${res.stdout.slice(-500)}`);
  return JSON.parse(line) as { E: string; sz: string[]; resumed: boolean };
}

describe('TeNPy DMRG resumed from its checkpoint', () => {
  test('gives the uninterrupted run\'s energy and densities bit for bit, wherever it was killed', { timeout: 300_000 }, async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'physvec-dmrg-resume-'));
    try {
      const whole = (await run(path.join(root, 'whole')))!;
      assert.equal(whole.resumed, false);
      for (const k of [1, 5]) {
        const dir = path.join(root, `killed-${k}`);
        await run(dir, k);
        const resumed = (await run(dir))!;
        assert.equal(resumed.resumed, true, `the run after the kill at save ${k} resumed`);
        assert.equal(resumed.E, whole.E, `E after a kill at save ${k} (float.hex): ${resumed.E} vs ${whole.E}`);
        assert.deepEqual(resumed.sz, whole.sz, `<Sz> after a kill at save ${k}`);
        console.log(`# killed after save ${k}: E and all ${whole.sz.length} <Sz> identical to the uninterrupted run`);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
