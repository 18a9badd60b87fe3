// Apply an aggregated repair: the named functions are replaced whole, every other byte stays; the
// unified diff is stored as evidence for the report.
import { createTwoFilesPatch } from 'diff';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { RepairOutcome, ScriptSummary } from '../../schemas/pipeline.js';
import { applyFunctionReplacements, verifyElementFunctionsUnchanged } from '../../lib/harness/index.js';
import { parseScript } from '../../lib/script-analysis/index.js';
import { agentOutputSchemas } from '../../schemas/agent-outputs.js';
import { readAnswer, type AnswerRef } from './answers.js';
import { loadStructure, summarizeScript } from './script-summary.js';

/**
 * `suspects` (a scientific repair): the element functions the repairer was asked to keep to; the
 * element functions the diff actually changed outside them are listed in the outcome.
 */
export async function applyRepair(store: ArtifactStore, input: { summary: ScriptSummary; answer: AnswerRef; suspects?: string[] }): Promise<RepairOutcome> {
  const { source, structure } = await loadStructure(store, input.summary);
  const repair = await readAnswer(store, input.answer, agentOutputSchemas.repair, 'repair');
  const next = applyFunctionReplacements(source, structure, repair.functions.map((f) => ({ name: f.name, newSource: f.source })));
  const summary = await summarizeScript(store, next, input.summary.language);
  const diff = createTwoFilesPatch('before', 'after', source, next, '', '', { context: 2 });
  const changedElements = summary.problems.length ? [] : verifyElementFunctionsUnchanged(structure, parseScript(next, input.summary.language)).map((d) => d.name);
  return {
    summary,
    diffRef: await store.put(diff, { name: 'repair.diff', mediaType: 'text/x-diff' }),
    diffPreview: diff.slice(0, 3000),
    changedFunctions: repair.functions.map((f) => f.name),
    problems: summary.problems,
    ...(input.suspects ? { suspects: input.suspects, unsuspectedChanges: changedElements.filter((f) => !input.suspects!.includes(f)) } : {}),
  };
}
