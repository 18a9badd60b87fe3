// Issue 27.6: a unit test that never ends is stopped at its own CPU limit (a tenth of the script's,
// not the full 300 s), interrupted first so its traceback says where it was, and judged by the same
// rule as any failure: stuck in the function under test → that function is wrong; stuck in the
// entry point → the harness's fault (undetermined). The kill's reason reaches the verdict's words.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { digestRun, runJob } from '../../activities/pipeline/run-job.js';
import { buildUnitHarness } from '../../lib/harness/unit-harness.js';
import { judgeUnitRun } from '../../lib/harness/unit-verdict.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';
import { runSandboxed } from '../../runners/sandbox/index.js';
import type { SandboxResult } from '../../schemas/sandbox.js';
import { testStore, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();

const SCRIPT = `def hamiltonian_chain(n):
    total = 0
    while n > 0:
        total += n  # never changes n: never ends
    return total


def observable_energy(e):
    return e


def main():
    print("PHYSVEC_RESULT", observable_energy(hamiltonian_chain(3)))


if __name__ == "__main__":
    main()
`;
const structure = parseScript(SCRIPT, 'python');
const elements = new Set(structure.elementFunctions.map((f) => f.name));

async function runHarness(target: string, entryPoint: string, scriptLimitMs: number) {
  const harness = buildUnitHarness({ structure, target, background: [], entryPoint, language: 'python' });
  const ref = await store.put(harness.source, { name: harness.fileName, mediaType: 'text/x-python' });
  let seen: SandboxResult | null = null;
  const digest = await runJob(store, async (req) => (seen = await runSandboxed(req as never, { store })), {
    job: { id: `unit:${target}`, purpose: { kind: 'unit', function: target }, file: harness.fileName, ref },
    language: 'python',
    timeoutMs: scriptLimitMs,
  });
  return { harness, digest, result: seen! };
}

describe('a unit test that never ends', () => {
  test('is stopped at the unit test\'s own CPU limit and blamed on the function it was stuck in', async () => {
    // A 20 s script limit gives unit tests 10 s (the floor; a tenth would be 2 s).
    const { harness, digest, result } = await runHarness('hamiltonian_chain', 'def main():\n    print(hamiltonian_chain(3))\n', 20_000);
    assert.equal(result.limits.timeoutMs, 10_000, 'the unit test\'s own limit, not the script\'s');
    assert.equal(result.killedReason, 'timeout');
    assert.match(digest.killed ?? '', /^unit test hamiltonian_chain exceeded its 10 s CPU limit after 1\d s CPU, \d+ s wall at load [\d.]+$/);
    assert.match(result.stderrTail, /KeyboardInterrupt/, 'interrupted first, so the traceback says where it was');
    const v = judgeUnitRun({ target: 'hamiltonian_chain', harness, entryCallsTarget: true, elementFunctions: elements, run: digest });
    assert.equal(v.judge, 'wrong', v.errors);
    assert.equal(v.blame, 'hamiltonian_chain');
    assert.match(v.errors, /^unit test hamiltonian_chain exceeded its 10 s CPU limit .*; it was still running in hamiltonian_chain:\n/);
  });

  test('stuck in its own entry point, it is the harness\'s fault (undetermined), with the same words', async () => {
    // A 5 s script limit: the unit test's floor is cut to the script's own.
    const { harness, digest } = await runHarness('observable_energy', 'def main():\n    while True:\n        pass\n    print(observable_energy(1.0))\n', 5_000);
    const v = judgeUnitRun({ target: 'observable_energy', harness, entryCallsTarget: true, elementFunctions: elements, run: digest });
    assert.equal(v.judge, 'undetermined', v.errors);
    assert.equal(v.blame, undefined);
    assert.match(v.errors, /exceeded its 5 s CPU limit .*the test harness was still running in the entry point \(main\), not in observable_energy: build smaller inputs/);
  });

  test('calling a function that returns in a loop that never ends is the harness\'s fault, though the interrupt lands inside the function', async () => {
    // The rule-based test writer's timeout mistake (tests/pipeline/unit-test-refine.test.ts): the loop, not observable_energy, never ends.
    const { harness, digest, result } = await runHarness('observable_energy', 'def main():\n    while True:\n        observable_energy(sum(i * i for i in range(2000)))\n', 5_000);
    assert.equal(result.killedReason, 'timeout');
    const v = judgeUnitRun({ target: 'observable_energy', harness, entryCallsTarget: true, elementFunctions: elements, run: digest });
    assert.equal(v.judge, 'undetermined', v.errors);
    assert.equal(v.blame, undefined);
  });

  test('without a traceback (older results, or a script that ignores the interrupt) it stays undetermined', () => {
    const digest = digestRun('unit:f', { exitCode: null, timedOut: true, killedReason: 'timeout', durationMs: 31_000, stdoutTail: '', stderrTail: '', files: [] } as never, { kind: 'unit', function: 'f' }, 30_000);
    const harness = buildUnitHarness({ structure, target: 'observable_energy', background: [], entryPoint: 'def main():\n    print(observable_energy(1.0))\n', language: 'python' });
    const v = judgeUnitRun({ target: 'observable_energy', harness, entryCallsTarget: true, elementFunctions: elements, run: digest });
    assert.equal(v.judge, 'undetermined');
    assert.match(v.errors, /^timed out \(limit 30 s\); no traceback says where it was/);
  });
});
