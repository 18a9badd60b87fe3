// Physical assertions: variant scripts (main replaced, element functions verbatim — enforced), and
// the comparison of their printed numbers with the truths, by code. Only qualitative truths that code
// cannot check are left for an LLM judge.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { AssertionVerdict, RunDigest, ScriptJob, ScriptSummary } from '../../schemas/pipeline.js';
import { replaceMain, verifyElementFunctionsUnchanged } from '../../lib/harness/index.js';
import { parseScript } from '../../lib/script-analysis/index.js';
import { allFunctions } from '../../lib/script-analysis/check-structure.js';
import { lastLines } from '../../lib/verification/suspects.js';
import { agentOutputSchemas } from '../../schemas/agent-outputs.js';
import { parseTruth, compareNumeric, checkProperty } from '../../lib/tasks/truth.js';
import { readAnswer, type AnswerRef } from './answers.js';
import { extensionOf, loadStructure } from './script-summary.js';
import { jobId, type JobPurpose } from '../../schemas/job-purpose.js';
import { variantFailure, variantFaultReason, variantLines, type VariantLines } from '../../lib/harness/variant-verdict.js';
import { withCallRecording } from '../../lib/harness/call-recording.js';

/** One replacement `main` per case, as the assertion writer answers or as a reference folder holds them. */
export type VariantMain = { case: string; main: string };

/**
 * Variant scripts of `summary`: its text with only main replaced, one per case. The mains come from
 * an LLM answer (the reproduction) or are given directly (`variants`, e.g. a reference suite's files).
 * With `only`, just those cases (a rewrite of the variants whose own code failed). `lines` says where
 * each variant's own code is, so a failure in it is told from one in the script's functions.
 */
export async function buildVariantJobs(
  store: ArtifactStore,
  input: { summary: ScriptSummary; only?: string[] } & ({ answer: AnswerRef; variants?: undefined } | { variants: VariantMain[]; answer?: undefined }),
): Promise<{ jobs: ScriptJob[]; problems: { case: string; problem: string }[]; reach: VariantReach[]; lines: VariantLines[] }> {
  const { structure } = await loadStructure(store, input.summary);
  const all = input.variants ?? (await readAnswer(store, input.answer, agentOutputSchemas['variant-mains'], 'assertion variants')).variants;
  const variants = input.only ? all.filter((v) => input.only!.includes(v.case)) : all;
  const jobs: ScriptJob[] = [];
  const problems: { case: string; problem: string }[] = [];
  const reach: VariantReach[] = [];
  const lines: VariantLines[] = [];
  const recorded = [...structure.elementFunctions, ...structure.runFunctions].map((f) => f.name);
  for (const v of variants) {
    try {
      // The script's own functions record their calls (what they returned is the evidence that ranks suspects).
      const text = withCallRecording(parseScript(replaceMain(structure, v.main), input.summary.language), recorded);
      const variant = parseScript(text, input.summary.language);
      reach.push({ case: v.case, main: v.main, calls: elementFunctionsReached(variant) });
      const changed = verifyElementFunctionsUnchanged(structure, variant);
      if (changed.length) {
        problems.push({ case: v.case, problem: `the variant changed element functions (${changed.map((c) => c.name).join(', ')}); only main may be replaced` });
        continue;
      }
      const file = `variant_${v.case.replace(/[^a-z0-9]+/gi, '_')}.${extensionOf(input.summary.language)}`;
      const purpose: JobPurpose = { kind: 'assertion', case: v.case };
      jobs.push({ id: jobId(purpose), purpose, file, ref: await store.put(text, { name: file }) });
      const where = variantLines(v.case, file, variant);
      if (where) lines.push(where);
    } catch (err) {
      problems.push({ case: v.case, problem: `could not build the variant: ${(err as Error).message}` });
    }
  }
  return { jobs, problems, reach, lines };
}

/** What a variant's main exercises: the element functions it reaches through run_/item_ functions, in script order. */
export type VariantReach = { case: string; main: string; calls: string[] };

function elementFunctionsReached(variant: ReturnType<typeof parseScript>): string[] {
  const callees = new Map(allFunctions(variant).map((f) => [f.name, f.callees]));
  const seen = new Set<string>(['main']);
  const queue = ['main'];
  while (queue.length) {
    for (const next of callees.get(queue.shift()!) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return variant.elementFunctions.map((f) => f.name).filter((n) => seen.has(n));
}

/** A `PHYSVEC_RESULT` value printed, as numbers: the last one named `name` when a name is given (none if absent), else the last. */
export function observedNumbers(results: unknown[], name?: string): number[] | undefined {
  const named = name === undefined ? results : results.filter((r) => r !== null && typeof r === 'object' && (r as { name?: unknown }).name === name);
  const last = named[named.length - 1];
  const value = last && typeof last === 'object' && !Array.isArray(last) && 'value' in (last as object) ? (last as { value: unknown }).value : last;
  if (typeof value === 'number') return [value];
  if (Array.isArray(value) && value.every((x) => typeof x === 'number')) return value as number[];
  if (Array.isArray(value) && value.every((x) => typeof x === 'boolean')) return (value as boolean[]).map(Number);
  if (typeof value === 'boolean') return [Number(value)];
  return undefined;
}

/**
 * Verdicts by code. With `lines` (where each variant's own code is), a variant whose own code is at
 * fault — it could not be built, was not written, raised inside its main, or printed no numeric
 * result — is undetermined with `variantFault`: it says nothing about the script, goes back to the
 * writer, and never counts against the script. Without `lines` (verdicts recorded before), as before.
 */
export function checkAssertions(input: {
  cases: { id: string; content: string; truth: string }[];
  runs: RunDigest[];
  problems: { case: string; problem: string }[];
  lines?: VariantLines[];
}): { verdicts: AssertionVerdict[]; qualitative: { case: string; content: string; truth: string; output: string }[] } {
  const verdicts: AssertionVerdict[] = [];
  const qualitative: { case: string; content: string; truth: string; output: string }[] = [];
  const judgeFaults = input.lines !== undefined;
  for (const c of input.cases) {
    const base = { case: c.id, content: c.content, truth: c.truth };
    const problem = input.problems.find((p) => p.case === c.id);
    const run = input.runs.find((r) => r.id === c.id);
    if (problem || !run) {
      const reason = problem?.problem ?? 'no variant was written for this case';
      verdicts.push(judgeFaults ? { ...base, judge: 'undetermined', method: 'none', reason, exitCode: null, variantFault: true } : { ...base, judge: 'error', method: 'none', reason, exitCode: null });
      continue;
    }
    const lines = input.lines?.find((l) => l.case === c.id);
    const failure = lines && run.exitCode !== 0 ? variantFailure(lines, run) : undefined;
    if (failure?.fault === 'variant') {
      verdicts.push({ ...base, judge: 'undetermined', method: 'none', variantFault: true, reason: variantFaultReason(failure.where, run), exitCode: run.exitCode });
      continue;
    }
    if (run.exitCode !== 0) {
      verdicts.push({ ...base, judge: 'error', method: 'none', reason: `the variant failed (exit ${run.exitCode}${run.killed ? `; ${run.killed}` : run.timedOut ? ', timed out' : ''}):\n${lastLines(run.stderrTail, 12)}`, exitCode: run.exitCode });
      continue;
    }
    const observed = observedNumbers(run.results);
    const truth = parseTruth(c.truth);
    if (truth.kind === 'numeric' && observed) {
      const cmp = compareNumeric(observed, truth);
      verdicts.push({ ...base, judge: cmp.pass ? 'correct' : 'wrong', method: 'numeric', observed: cmp.observed, expected: cmp.expected, reason: `max ${cmp.tolerance.type} error ${cmp.error.toPrecision(3)} vs tolerance ${cmp.tolerance.value}${cmp.note ? ` (${cmp.note})` : ''}`, exitCode: 0 });
      continue;
    }
    if (truth.kind === 'qualitative' && observed) {
      const cmp = checkProperty(observed, truth);
      if (cmp) {
        verdicts.push({ ...base, judge: cmp.pass ? 'correct' : 'wrong', method: 'property', observed: cmp.observed, reason: `${truth.property}: max deviation ${cmp.error.toPrecision(3)} vs tolerance ${cmp.tolerance.value}`, exitCode: 0 });
        continue;
      }
    }
    if (truth.kind === 'numeric' && !observed) {
      const reason = 'the variant printed no numeric PHYSVEC_RESULT line';
      verdicts.push(judgeFaults ? { ...base, judge: 'undetermined', method: 'none', reason, exitCode: 0, variantFault: true } : { ...base, judge: 'error', method: 'none', reason, exitCode: 0 });
      continue;
    }
    qualitative.push({ case: c.id, content: c.content, truth: c.truth, output: run.stdoutTail.slice(-2000) });
    verdicts.push({ ...base, judge: 'undetermined', method: 'llm', observed, reason: 'awaiting the qualitative judge', exitCode: 0 });
  }
  return { verdicts, qualitative };
}

export async function mergeQualitative(store: ArtifactStore, input: { verdicts: AssertionVerdict[]; answer: AnswerRef }): Promise<AssertionVerdict[]> {
  const { verdicts } = await readAnswer(store, input.answer, agentOutputSchemas['qualitative-verdicts'], 'qualitative verdicts');
  return input.verdicts.map((v) => {
    if (v.method !== 'llm') return v;
    const j = verdicts.find((x) => x.case === v.case);
    return j ? { ...v, judge: j.judge, reason: `LLM judge: ${j.reason}` } : v;
  });
}
