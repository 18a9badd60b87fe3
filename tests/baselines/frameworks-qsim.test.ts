// The same four frameworks on a real suite task, qsim task_qsim_trotter_domain_wall (Qiskit; its
// reference runs in ~7 s, but the verifiers run ~150 sandboxed scripts): several minutes on 2 cores,
// so it runs only when PHYSVEC_SLOW_TESTS=1. It checks that the campaign cassettes of this task
// produce the scenario's metrics end to end.
import { test } from 'node:test';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import { runScenario } from './scenario.js';

const slow = process.env.PHYSVEC_SLOW_TESTS === '1';

test('the four frameworks on task_qsim_trotter_domain_wall (PHYSVEC_SLOW_TESTS=1)', { timeout: 3_600_000 }, async (t) => {
  if (!slow) return t.skip('slow (several minutes of Qiskit runs): set PHYSVEC_SLOW_TESTS=1 to run it');
  await runScenario({
    taskId: 'task_qsim_trotter_domain_wall',
    taskFile: path.join(repoRoot, 'data/tasks/qsim/task_qsim_trotter_domain_wall.json'),
    rubric: true,
    convergenceCases: 1,
    assertions: 8,
    oneShotAccuracy: 'below-one',
  });
});
