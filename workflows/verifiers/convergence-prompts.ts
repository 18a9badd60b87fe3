// Prompt of the convergence test (the Scientific verifier's last check): a variant main driven by a knob.
import { variantFaultForWriter } from '../../lib/harness/variant-verdict.js';
import type { LlmMessage } from '../../schemas/llm.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import { PARAM_ENV, RESULT_MARKER } from '../../schemas/script-markers.js';

export function convergencePrompt(script: ArtifactRef, c: { id: string; content: string; parameter: string; criteria: string }): LlmMessage[] {
  return [
    { role: 'system', content: `You are the Scientific verifier running a convergence test. Write a replacement \`main\` that reads the knob from the environment variable ${PARAM_ENV}, runs the calculation and prints the monitored value as \`${RESULT_MARKER} <number>\`; propose the schedule of knob values, and as \`monitor\` name the script's own \`${RESULT_MARKER}\` line for the same quantity (the two are compared).` },
    { role: 'user', content: [{ text: 'The script:' }, { artifact: script, label: 'script' }] },
    { role: 'user', content: `${c.id}\nmonitor: ${c.content}\nknob: ${c.parameter}\ncriterion: ${c.criteria}` },
  ];
}

/**
 * The writer's own repair: its variant (or schedule) failed in its own code — it could not be built,
 * raised inside the replacement main, or printed no number — so it measured nothing. Rewrite it.
 */
export function convergenceRefinePrompt(script: ArtifactRef, c: { id: string; content: string; parameter: string; criteria: string }, failed: { main: string; error: string }): LlmMessage[] {
  return [
    ...convergencePrompt(script, c),
    { role: 'user', content: `Your variant failed in its own code, not in the script's functions: it measured nothing. Rewrite the main and the schedule.\n\nyour main:\n${failed.main}\nits error, at ${variantFaultForWriter(failed.error)}` },
  ];
}
