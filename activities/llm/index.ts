// The LLM activities a worker registers: `callLlm`. Workflows import only the type:
//   const { callLlm } = proxyActivities<LlmActivities>(LLM_ACTIVITY);
import { artifactStore, type ArtifactStore } from '../../lib/artifacts/store.js';
import { loadConfig } from '../../lib/config.js';
import type { PhysvecConfig } from '../../schemas/config.js';
import type { LlmRequest, LlmResult } from '../../schemas/llm.js';
import { callLlm, type ToolExecutor } from './call-llm.js';
import { instrumentedLlmCall } from './telemetry.js';
import type { Env } from '../../lib/llm/endpoint.js';


export interface LlmActivityDeps {
  store?: ArtifactStore;
  /** Tool name → executor, e.g. { retrieve: ({ query, toolchain }) => … } from the knowledge base. */
  tools?: Record<string, ToolExecutor>;
  /** Default: physvec.config.json (or $PHYSVEC_CONFIG), read once when the activities are created. */
  config?: PhysvecConfig;
  /** Where API keys and base-URL overrides are read; default process.env (read at call time). */
  env?: Env;
}

export function createLlmActivities(deps: LlmActivityDeps = {}) {
  const resolved = { store: deps.store ?? artifactStore(), tools: deps.tools ?? {}, config: deps.config ?? loadConfig(), env: deps.env ?? process.env };
  return {
    async callLlm(req: LlmRequest): Promise<LlmResult> {
      return instrumentedLlmCall(resolved.config, req, () => callLlm(resolved, req));
    },
  };
}

export type LlmActivities = ReturnType<typeof createLlmActivities>;
