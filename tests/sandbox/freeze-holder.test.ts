// A script that stops (SIGSTOP) and ptrace-attaches every process it can see, then exits at once,
// ends the same way on the cold and the warm start: exit 0 within seconds. The warm holder (PID 2
// of a warm run) runs under a uid of its own, so it can be neither stopped nor traced; before, it
// was frozen and the warm run lasted its full timeout.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { probeIsolation, runSandboxed, warmUpSandbox } from '../../runners/sandbox/index.js';
import { planIsolation } from '../../runners/sandbox/plan.js';
import { hostileScript, testStore, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();
const TIMEOUT_MS = 40_000;

for (const warm of [false, true]) {
  describe(`a script freezing what it sees (${warm ? 'warm' : 'cold'} start)`, () => {
    let missing: string[] = [];
    before(async () => {
      process.env.PHYSVEC_SANDBOX_WARM = warm ? '1' : '0';
      missing = planIsolation(await probeIsolation(), 'auto').missing;
      if (warm && missing.length === 0) await warmUpSandbox();
    });

    test('ends at once with exit 0, nothing frozen', { timeout: 120_000 }, async (t) => {
      if (warm && missing.length) return t.skip(`warm starts need the full chain; this host lacks: ${missing.join(', ')}`);
      const started = Date.now();
      const result = await runSandboxed({ language: 'python', entry: 'main.py', files: [hostileScript('freeze-others.py')], timeoutMs: TIMEOUT_MS }, { store });
      const took = Date.now() - started;
      if (warm) assert.equal(result.start?.path, 'warm', `the warm variant started ${JSON.stringify(result.start)}`);
      assert.equal(result.timedOut, false, `the run was held until its timeout: ${result.stdoutTail}${result.stderrTail}`);
      assert.equal(result.exitCode, 0, result.stderrTail);
      assert.match(result.stdoutTail, /^tried /m);
      // Nothing the script could reach was stopped: no other process it saw was stoppable by it.
      assert.doesNotMatch(result.stdoutTail, /: stopped|attached/, `the script froze a process: ${result.stdoutTail}`);
      assert.ok(took < TIMEOUT_MS / 2, `took ${took} ms`);
    });
  });
}
