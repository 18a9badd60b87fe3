// Dollars from the price table in physvec.config.json (llm.models). Pure.
import type { ModelInfo } from '../../schemas/config.js';
import type { TokenUsage } from '../../schemas/llm.js';
import { isScriptedModel, parseModelId } from './model-id.js';

export type PriceTable = Record<string, ModelInfo>;

const FREE: ModelInfo = { inputPerMTok: 0, outputPerMTok: 0, cachedInputPerMTok: 0, supportsTemperature: true };

/** The table entry for a model string: exact `provider:model` first, then the bare model name. Scripted is free. */
export function modelInfo(table: PriceTable, modelId: string): ModelInfo | undefined {
  if (isScriptedModel(modelId)) return FREE;
  return table[modelId] ?? table[parseModelId(modelId).model];
}

/** Cached input tokens are part of inputTokens and billed at the cached rate. */
export function costUsd(usage: TokenUsage, info: ModelInfo): number {
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const fresh = usage.inputTokens - cached;
  const perMillion =
    fresh * info.inputPerMTok + cached * (info.cachedInputPerMTok ?? info.inputPerMTok) + usage.outputTokens * info.outputPerMTok;
  return perMillion / 1e6;
}
