// Scripts may use the sandbox runtime (runners/runtime/python/physvec_runtime, runners/PROTOCOL.md)
// for progress and checkpoints. Its import is an ordinary import in the preamble, and its calls —
// `pv.progress(…)` or a bare `progress(…)` from `from physvec_runtime import …` — are neither element
// functions nor steps of a run_ function, so they change neither the check nor the integration levels.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildIntegrationLevels } from '../../lib/harness/integration-levels.js';
import { checkStructure } from '../../lib/script-analysis/check-structure.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';

const script = [
  'import numpy as np',
  'import physvec_runtime as pv',
  'from physvec_runtime import progress, checkpoint_path',
  '',
  'def hamiltonian_chain(L):',
  '    return -np.eye(L, k=1) - np.eye(L, k=-1)',
  '',
  'def effector_power_iteration(H, steps):',
  '    saved = pv.load_json(f"power_{len(H)}_{steps}", default=None)',
  '    v = np.ones(len(H)) if saved is None else np.array(saved["v"])',
  '    for k in range(steps):',
  '        v = H @ v',
  '        v /= np.linalg.norm(v)',
  '        pv.progress(step=k, max_steps=steps)',
  '        progress(step=k)',
  '        pv.save_json(f"power_{len(H)}_{steps}", {"v": v.tolist()})',
  '    print(checkpoint_path("power"))',
  '    return v',
  '',
  'def observable_energy(H, v):',
  '    return float(v @ H @ v)',
  '',
  'def run_chain(L, steps):',
  '    H = hamiltonian_chain(L)',
  '    pv.progress(stage="effector")',
  '    v = effector_power_iteration(H, steps)',
  '    progress(stage="observable")',
  '    return observable_energy(H, v)',
  '',
  'def main():',
  '    print(run_chain(8, 50))',
  '',
  'if __name__ == "__main__":',
  '    main()',
  '',
].join('\n');

describe('scripts that use physvec_runtime', () => {
  const structure = parseScript(script, 'python');

  it('pass the structure check with the runtime import in the preamble', () => {
    assert.deepEqual(checkStructure(structure), []);
    assert.match(structure.preamble.source, /^import physvec_runtime as pv$/m);
    assert.match(structure.preamble.source, /^from physvec_runtime import progress, checkpoint_path$/m);
    assert.deepEqual(structure.elementFunctions.map((f) => f.name), ['hamiltonian_chain', 'effector_power_iteration', 'observable_energy']);
    assert.deepEqual(structure.otherFunctions, []);
  });

  it('never count runtime calls as calls of script functions', () => {
    const effector = structure.elementFunctions.find((f) => f.name === 'effector_power_iteration')!;
    assert.deepEqual(effector.callees, []);
    const run = structure.runFunctions[0]!;
    assert.deepEqual(run.calls.map((c) => c.name), ['hamiltonian_chain', 'effector_power_iteration', 'observable_energy']);
  });

  it('give one integration level per element call, the runtime calls kept verbatim', () => {
    const levels = buildIntegrationLevels(structure, 'run_chain');
    assert.deepEqual(levels.map((l) => l.introduces), [['hamiltonian_chain'], ['effector_power_iteration'], ['observable_energy']]);
    assert.match(levels[1]!.source, /    pv\.progress\(stage="effector"\)\n    v = effector_power_iteration\(H, steps\)\n    return v\n/);
  });
});
