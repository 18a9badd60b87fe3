// A run_ function that main never reaches has no integration levels: it is reported as untested
// and left out of the integration accuracy, instead of failing the programming stage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { summarizeScript } from '../../activities/pipeline/script-summary.js';
import { buildLevelJobs, integrationUntestable } from '../../activities/pipeline/programming.js';
import { loadStructure } from '../../activities/pipeline/script-summary.js';

const SCRIPT = `import numpy as np

def site_spin():
    return np.eye(2)

def hamiltonian_field(site, h):
    return h * site

def observable_trace(ham):
    return float(np.trace(ham))

def run_used(h):
    s = site_spin()
    ham = hamiltonian_field(s, h)
    return observable_trace(ham)

def run_unused(h):
    s = site_spin()
    return hamiltonian_field(s, h)

def main():
    value = run_used(0.5)
    print(value)

if __name__ == "__main__":
    main()
`;

test('a run_ function main never calls is untested, not a failure', async () => {
  const store = new ArtifactStore(mkdtempSync(path.join(os.tmpdir(), 'physvec-untested-')));
  const summary = await summarizeScript(store, SCRIPT, 'python');
  const jobs = await buildLevelJobs(store, { summary });
  assert.ok(jobs.length >= 3, 'run_used has its levels');
  assert.ok(jobs.every((j) => j.id.startsWith('level:run_used:')), `only run_used is level-tested: ${jobs.map((j) => j.id).join(', ')}`);
  const { structure } = await loadStructure(store, summary);
  assert.equal(integrationUntestable(structure, 'run_used'), undefined);
  assert.match(integrationUntestable(structure, 'run_unused') ?? '', /not called from `main`/);
});
