// The simulation queue's pipeline activity (runJob), in a module of its own: a simulation worker
// loads it without the orchestration's pipeline steps (reports, judging, repair: ~0.4 s of CPU at
// every worker start, minutes on a loaded host; issue 24.4).
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import { runJob, type RunSandbox } from './run-job.js';

export function createSimulationPipelineActivities(store: ArtifactStore, runSandbox: RunSandbox) {
  return {
    runJob: (input: Parameters<typeof runJob>[2]) => runJob(store, runSandbox, input),
  };
}

export type SimulationPipelineActivities = ReturnType<typeof createSimulationPipelineActivities>;
