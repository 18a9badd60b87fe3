// The same numbers give the same figure bytes (issue 25.6): a script plotting fixed data and saving
// it as SVG, PDF and PNG, run twice in the sandbox (a second apart, so a creation date would
// differ), writes files with equal sha256 — no date in the metadata, SVG ids hashed with a fixed
// salt. The resume drills compare a resumed run's figure with the uninterrupted run's by this sha.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSandboxed } from '../../runners/sandbox/index.js';
import { testStore, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();

const SCRIPT = `
import matplotlib.pyplot as plt
x = [1.0, 2.0, 3.0, 4.0]
y = [-0.75, -1.5, -2.25, -3.0]
fig, ax = plt.subplots()
ax.plot(x, y, 'o-', label='E0(J)')
ax.set_xlabel('J')
ax.set_ylabel('E0')
ax.legend()
for ext in ('svg', 'pdf', 'png'):
    fig.savefig('figure.' + ext)
print('saved')
`;

async function figureShas(): Promise<Record<string, string>> {
  const result = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: SCRIPT }], timeoutMs: 120_000 }, { store });
  assert.equal(result.exitCode, 0, result.stderrTail);
  return Object.fromEntries(result.files.filter((f) => f.path.startsWith('figure.')).map((f) => [f.path, f.ref.sha256]));
}

test('two runs plotting the same numbers write byte-identical SVG, PDF and PNG files', async () => {
  const first = await figureShas();
  assert.deepEqual(Object.keys(first).sort(), ['figure.pdf', 'figure.png', 'figure.svg']);
  await new Promise((r) => setTimeout(r, 1100)); // a creation date in seconds would now differ
  const second = await figureShas();
  const differ = Object.keys(first).filter((f) => first[f] !== second[f]);
  assert.deepEqual(differ, [], `figure files whose bytes differ between two runs of the same numbers: ${differ.join(', ')}`);
});
