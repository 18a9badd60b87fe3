// Naming the faulty function. A crash names it through its traceback; a script that runs but fails a
// physical check is localised differentially against the reference: each of its functions in turn is
// replaced by the reference's definition (every other byte kept) and one failing case is rerun; the
// function whose replacement makes the case pass is the faulty one.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { RunDigest, ScriptSummary } from '../../schemas/pipeline.js';
import { applyFunctionReplacements } from '../../lib/harness/index.js';
import { allFunctions } from '../../lib/script-analysis/check-structure.js';
import { failingFunction, lastError } from '../pipeline/programming.js';
import { loadStructure, summarizeScript } from '../pipeline/script-summary.js';

/** Where a full-script crash happened: the innermost element function of the traceback, else the innermost script function. */
export async function locateCrash(store: ArtifactStore, input: { summary: ScriptSummary; run: RunDigest }): Promise<{ function?: string; error: string }> {
  const { structure } = await loadStructure(store, input.summary);
  const elements = new Set(structure.elementFunctions.map((f) => f.name));
  const ours = new Set(allFunctions(structure).map((f) => f.name));
  const where = failingFunction(input.run.stderrTail, elements) ?? failingFunction(input.run.stderrTail, ours);
  const error = input.run.timedOut ? `timed out after ${Math.round(input.run.durationMs / 1000)} s` : lastError(input.run.stderrTail);
  return { ...(where ? { function: where } : {}), error };
}

export interface ReplacementCandidate {
  function: string;
  /** The script with only this function replaced by the reference's definition. */
  summary: ScriptSummary;
}

/**
 * One candidate script per function that differs from the reference, in the order the verifiers
 * think about them: element functions, run_ functions, main, helpers. A function whose replacement
 * would leave the text unchanged is not a candidate (rerunning an identical script proves nothing).
 */
export async function referenceReplacements(
  store: ArtifactStore,
  input: { script: ScriptSummary; reference: ScriptSummary },
): Promise<{ candidates: ReplacementCandidate[]; unchanged: string[]; skipped: { function: string; reason: string }[] }> {
  const { source, structure } = await loadStructure(store, input.script);
  const { structure: ref } = await loadStructure(store, input.reference);
  const refByName = new Map(allFunctions(ref).map((f) => [f.name, f.source]));
  const candidates: ReplacementCandidate[] = [];
  const unchanged: string[] = [];
  const skipped: { function: string; reason: string }[] = [];
  for (const fn of allFunctions(structure)) {
    const replacement = refByName.get(fn.name);
    if (replacement === undefined) {
      skipped.push({ function: fn.name, reason: 'the reference does not define it' });
      continue;
    }
    let text: string;
    try {
      text = applyFunctionReplacements(source, structure, [{ name: fn.name, newSource: replacement }]);
    } catch (err) {
      skipped.push({ function: fn.name, reason: `could not replace it: ${(err as Error).message}` });
      continue;
    }
    if (text === source) unchanged.push(fn.name);
    else candidates.push({ function: fn.name, summary: await summarizeScript(store, text, input.script.language) });
  }
  return { candidates, unchanged, skipped };
}
