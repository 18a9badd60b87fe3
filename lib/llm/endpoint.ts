// From a model string to a concrete endpoint: provider config, key from the environment, base URL.
import type { ModelInfo, PhysvecConfig, ProviderConfig } from '../../schemas/config.js';
import { modelInfo } from './cost.js';
import { parseModelId } from './model-id.js';

export type Env = Record<string, string | undefined>;

export interface Endpoint {
  modelId: string;
  alias: string;
  model: string;
  provider: ProviderConfig;
  apiKeyEnv: string | null;
  apiKey: string | undefined;
  baseUrl: string | undefined;
  timeoutMs: number;
  info: ModelInfo | undefined;
}

export class EndpointError extends Error {
  override name = 'EndpointError';
}

/** Throws EndpointError for an unknown provider alias. Does not require the key (see missingKey). */
export function resolveEndpoint(config: PhysvecConfig, env: Env, modelId: string): Endpoint {
  const { provider: alias, model } = parseModelId(modelId);
  const provider = config.llm.providers[alias];
  if (!provider) {
    throw new EndpointError(
      `unknown provider "${alias}" in model "${modelId}"; known: scripted, ${Object.keys(config.llm.providers).join(', ')} (add it under llm.providers in physvec.config.json)`,
    );
  }
  const fromEnv = provider.baseUrlEnv ? env[provider.baseUrlEnv] : undefined;
  return {
    modelId,
    alias,
    model,
    provider,
    apiKeyEnv: provider.apiKeyEnv,
    apiKey: provider.apiKeyEnv ? env[provider.apiKeyEnv] || undefined : undefined,
    baseUrl: fromEnv || provider.baseUrl,
    timeoutMs: provider.requestTimeoutMs ?? config.llm.requestTimeoutMs,
    info: modelInfo(config.llm.models, modelId),
  };
}

/** The environment variable that must be set for this endpoint and is not, if any. */
export function missingKey(ep: Endpoint): string | undefined {
  return ep.apiKeyEnv && !ep.apiKey ? ep.apiKeyEnv : undefined;
}
