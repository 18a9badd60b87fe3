// Which activities each task queue serves. Orchestration: LLM calls and light pipeline steps;
// simulation: sandbox runs (the Author's scripts, harnesses, variants).
import { artifactStore } from '../activities/artifacts/store.js';
import { createSandboxActivities } from '../activities/sandbox/run-script.js';
import { createLlmActivities } from '../activities/llm/index.js';
import { createPipelineActivities, createSimulationPipelineActivities } from '../activities/pipeline/index.js';
import { createKbTools, RETRIEVE_TOOL_SPEC } from '../lib/kb/tools.js';
import { detectToolchains } from '../activities/toolchains/detect.js';

type ActivityMap = Record<string, (...args: any[]) => Promise<unknown>>;

let availability: Promise<Set<string>> | undefined;
function availableProfiles(): Promise<Set<string>> {
  availability ??= detectToolchains()
    .then((list) => new Set(list.filter((t) => t.available).map((t) => t.profile)))
    .catch(() => new Set<string>());
  return availability;
}

export function orchestrationActivities(): ActivityMap {
  const store = artifactStore();
  return {
    ...createLlmActivities({ store, tools: createKbTools() }),
    ...createPipelineActivities({
      store,
      profileAvailable: async (p) => (await availableProfiles()).has(p),
      retrieveSpec: { name: RETRIEVE_TOOL_SPEC.name, description: RETRIEVE_TOOL_SPEC.description, parameters: RETRIEVE_TOOL_SPEC.parameters },
    }),
  };
}

export function simulationActivities(): ActivityMap {
  const store = artifactStore();
  const sandbox = createSandboxActivities(store);
  return {
    ...sandbox,
    ...createSimulationPipelineActivities(store, (req) => sandbox.runScript(req as never)),
  };
}
