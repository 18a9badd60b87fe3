// Which activities each task queue serves. Orchestration: LLM calls and light I/O; simulation: sandbox runs.
import { artifactStore } from '../activities/artifacts/store.js';
import { createSandboxActivities } from '../activities/sandbox/run-script.js';

export function orchestrationActivities(): Record<string, (...args: any[]) => Promise<unknown>> {
  return {};
}

export function simulationActivities(): Record<string, (...args: any[]) => Promise<unknown>> {
  return { ...createSandboxActivities(artifactStore()) };
}
