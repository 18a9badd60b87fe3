// Which warm python a run gets: the toolchain its python files import (a harness imports the
// script beside it, so every .py file counts), the heaviest first; anything else gets the default.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { warmProfileOf } from '../../runners/sandbox/warm.js';
import { parseSandboxRequest } from '../../runners/sandbox/index.js';

const req = (files: Record<string, string>) =>
  parseSandboxRequest({ language: 'python', entry: 'main.py', files: Object.entries(files).map(([p, content]) => ({ path: p, content })) });

test('the profile follows the imports of every python file of the run', async () => {
  assert.equal(await warmProfileOf('/nonexistent', req({ 'main.py': 'print(1)' })), 'tenpy');
  assert.equal(await warmProfileOf('/nonexistent', req({ 'main.py': 'import numpy as np, pyscf\n' })), 'pyscf');
  assert.equal(await warmProfileOf('/nonexistent', req({ 'main.py': 'from qiskit_aer import AerSimulator' })), 'qiskit');
  // The harness imports the script; the script imports netket and tenpy: netket's preload saves most.
  assert.equal(await warmProfileOf('/nonexistent', req({ 'main.py': 'import solution\nsolution.main()', 'solution.py': '  import tenpy\nfrom netket.models import RBM\n' })), 'netket');
  // Names in comments, strings and non-python files do not count.
  assert.equal(await warmProfileOf('/nonexistent', req({ 'main.py': '# import qiskit\ntext = "uses pyscf"\n', 'notes.txt': 'import netket' })), 'tenpy');
});
