// PhysVEC, ReAct, ReAct-RAG and 1-shot on the dimer smoke task (numpy, fast) with the campaign
// cassettes: the metrics the scenario implies (see scenario.ts and scripts/make-campaign-cassettes.ts).
import { test } from 'node:test';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import { runScenario } from './scenario.js';

test('the four frameworks on the dimer: RunMetrics as the campaign scenario implies', { timeout: 900_000 }, async () => {
  await runScenario({
    taskId: 'task_smoke_dimer_pipeline',
    taskFile: path.join(repoRoot, 'data/tasks/smoke/task_smoke_dimer_pipeline.json'),
    rubric: false,
    convergenceCases: 0,
    assertions: 1,
    // unit: the effector's wrong library call fails 1 of 5 element functions; integration: the
    // interface mismatch stops run_energy_vs_coupling at level 2 of its 4 element calls.
    oneShotAccuracy: { unit: 0.8, integration: 0.25 },
  });
});
