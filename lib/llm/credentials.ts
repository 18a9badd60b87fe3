// Which API keys are missing for the models a run will use: checked by the CLI before it starts a
// workflow, so a missing key is a message at once, not a failed activity minutes later.
import type { PhysvecConfig } from '../../schemas/config.js';
import { isScriptedModel } from './model-id.js';
import { BadInputError } from '../errors.js';
import { missingKey, resolveEndpoint, EndpointError, type Env } from './endpoint.js';

export interface MissingCredential {
  envVar: string;
  /** The models that need it. */
  models: string[];
}

export function checkCredentials(models: readonly string[], config: PhysvecConfig, env: Env = process.env): MissingCredential[] {
  const byVar = new Map<string, string[]>();
  for (const model of new Set(models)) {
    if (isScriptedModel(model)) continue;
    let envVar: string | undefined;
    try {
      envVar = missingKey(resolveEndpoint(config, env, model));
    } catch (err) {
      if (err instanceof EndpointError) throw new BadInputError(err.message);
      throw err;
    }
    if (envVar) byVar.set(envVar, [...(byVar.get(envVar) ?? []), model]);
  }
  return [...byVar].map(([envVar, ms]) => ({ envVar, models: ms }));
}

/** One line per variable: `set OPENAI_API_KEY (needed by openai:gpt-5.1, openai:gpt-5-mini)`. */
export function describeMissingCredentials(missing: readonly MissingCredential[]): string {
  return missing.map((m) => `set ${m.envVar} (needed by ${m.models.join(', ')})`).join('\n');
}
