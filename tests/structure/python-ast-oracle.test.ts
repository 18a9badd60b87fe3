// The structure parser against CPython's own `ast` on code we did not write: modules of the
// physics libraries installed in .venv (TeNPy, NetKet, Qiskit, PySCF, NumPy, SciPy), full of
// decorators, nested defs, docstrings containing `def`, f-strings and multi-line signatures.
// Every top-level function and class must come out with the same name, kind, first line
// (decorators included), last line and parameters.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, venvPython } from '../../lib/paths.js';
import { allFunctions } from '../../lib/script-analysis/check-structure.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';
import { readFileSync } from 'node:fs';

interface OracleDefinition {
  name: string;
  kind: 'function' | 'type';
  startLine: number;
  endLine: number;
  params: string[];
}

const MODULES = [
  'tenpy/models/hubbard.py',
  'tenpy/algorithms/dmrg.py',
  'tenpy/networks/mps.py',
  'netket/driver/vmc.py',
  'netket/vqs/mc/mc_state/state.py',
  'qiskit/circuit/quantumcircuit.py',
  'pyscf/scf/hf.py',
  'numpy/_core/numeric.py',
  'scipy/sparse/linalg/_eigen/arpack/arpack.py',
  'scipy/optimize/_minimize.py',
];

function sitePackages(): string | null {
  if (!existsSync(venvPython)) return null;
  return execFileSync(venvPython, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], { encoding: 'utf8' }).trim();
}

describe('parseScript (python) against CPython ast on installed library modules', () => {
  const site = sitePackages();
  const files = site ? MODULES.map((m) => path.join(site, m)).filter((f) => existsSync(f)) : [];
  const skip = files.length < 5 ? `needs the .venv physics libraries (found ${files.length} of ${MODULES.length} modules; run scripts/bootstrap.sh)` : false;

  it('finds every top-level def and class with its lines and parameters', { skip }, () => {
    const oracle = JSON.parse(
      execFileSync(venvPython, [path.join(repoRoot, 'tests/fixtures/ast-oracle/top_level.py'), ...files], { encoding: 'utf8', maxBuffer: 64 << 20 }),
    ) as Record<string, OracleDefinition[]>;
    let compared = 0;
    for (const file of files) {
      const structure = parseScript(readFileSync(file, 'utf8'), 'python');
      const ours = allFunctions(structure)
        .map((f) => ({
          name: f.name,
          kind: 'kind' in f && f.kind === 'type' ? 'type' : 'function',
          startLine: f.span.startLine,
          endLine: f.span.endLine,
          params: f.params,
        }))
        .sort((a, b) => a.startLine - b.startLine);
      assert.deepEqual(ours, oracle[file], path.relative(site!, file));
      compared += ours.length;
    }
    assert.ok(compared > 100, `compared ${compared} definitions`);
  });
});
