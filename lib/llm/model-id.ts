// Model strings `<provider>:<model>`. Pure: safe in workflows.

export interface ParsedModelId {
  /** Provider alias: `openai`, `gemini`, `scripted`, or any alias defined in llm.providers. */
  provider: string;
  /** The provider's model name, or for `scripted` the cassette name or path. */
  model: string;
}

export function parseModelId(id: string): ParsedModelId {
  const colon = id.indexOf(':');
  if (colon <= 0 || colon === id.length - 1) {
    throw new Error(`"${id}" is not a model string; expected <provider>:<model>, e.g. openai:gpt-5.1 or scripted:demo`);
  }
  return { provider: id.slice(0, colon), model: id.slice(colon + 1) };
}

export function isScriptedModel(id: string): boolean {
  return id.startsWith('scripted:');
}
