// Which activities each task queue serves. Orchestration: LLM calls and light pipeline steps;
// simulation: sandbox runs (the Author's scripts, harnesses, variants).
import { artifactStore } from '../lib/artifacts/store.js';
import { createSandboxActivities } from '../activities/sandbox/run-script.js';
import { instrumentSandbox } from '../activities/sandbox/telemetry.js';
import { createSimulationPipelineActivities } from '../activities/pipeline/simulation-activities.js';
import { cachedDetection } from '../activities/toolchains/detection-cache.js';
import { announceSandboxProtections } from '../runners/sandbox/index.js';
import { defaultSimulationSlots } from './slots.js';

type ActivityMap = Record<string, (...args: never[]) => Promise<unknown>>;

/** Toolchain detection, once per worker process and profile (a 'timed out' result is checked again). */
const toolchains = cachedDetection();

let kbReady: Promise<unknown> | undefined;
/** Load (or build, once) the knowledge base in the background when the worker starts, so the first retrieve does not pay for it inside an LLM activity. */
function warmKnowledgeBase(loadKb: typeof import('../lib/kb/search.js').loadKb): Promise<unknown> {
  kbReady ??= loadKb({ autoBuild: true }).catch((err: Error) => console.warn(`physvec: the knowledge base is not available (${err.message}); retrieve will report it`));
  return kbReady;
}

/**
 * The orchestration queue's activities. Their modules (LLM clients, pipeline steps, results, campaigns,
 * the KB) are loaded here, not at the top: a simulation worker never needs them, and loading them is
 * most of a worker's start-up CPU (~0.6 s at idle, minutes at load 40; issue 24.4).
 */
export async function orchestrationActivities(): Promise<ActivityMap> {
  const [{ createLlmActivities }, { createPipelineActivities }, { createValidationActivities }, { createResultsActivities }, { createCampaignActivities }, { createKbTools, RETRIEVE_TOOL_SPEC }, { loadKb, parseRetrieveArgs }, { loadPinnedKb }, { retrieveFrom }, { runInputsNow }] = await Promise.all([
    import('../activities/llm/index.js'), import('../activities/pipeline/index.js'), import('../activities/validation/index.js'), import('../activities/results/index.js'),
    import('../activities/campaign/index.js'), import('../lib/kb/tools.js'), import('../lib/kb/search.js'), import('../lib/kb/pinned.js'), import('../lib/kb/retrieve.js'),
    import('../activities/run-inputs.js'),
  ]);
  const store = artifactStore();
  const kb = createKbTools();
  void warmKnowledgeBase(loadKb);
  return {
    ...createLlmActivities({
      store,
      tools: {
        retrieve: async (args: unknown) => {
          await warmKnowledgeBase(loadKb);
          // Within a run, the build the run first retrieved from (lib/kb/pinned.ts), whatever was built or deployed since.
          const inputs = runInputsNow(store);
          return inputs ? retrieveFrom(await loadPinnedKb(inputs, { autoBuild: true }), parseRetrieveArgs(args, `${RETRIEVE_TOOL_SPEC.name} tool arguments`)) : kb.retrieve(args);
        },
      },
    }),
    ...createPipelineActivities({
      store,
      toolchains,
      retrieveSpec: { name: RETRIEVE_TOOL_SPEC.name, description: RETRIEVE_TOOL_SPEC.description, parameters: RETRIEVE_TOOL_SPEC.parameters },
    }),
    ...createValidationActivities(store),
    ...createResultsActivities(),
    ...createCampaignActivities(),
  };
}

export function simulationActivities(): ActivityMap {
  const store = artifactStore();
  // Once per worker process: which sandbox protections this host gives, and why any is missing; then,
  // in the background, a warm python per toolchain with a run per sandbox slot started ahead.
  void announceSandboxProtections(undefined, { poolSize: defaultSimulationSlots() }).catch((err: Error) => console.warn(`physvec sandbox: could not probe the host (${err.message})`));
  const sandbox = instrumentSandbox(createSandboxActivities(store));
  return {
    ...sandbox,
    ...createSimulationPipelineActivities(store, (req) => sandbox.runScript(req as never)),
  };
}
