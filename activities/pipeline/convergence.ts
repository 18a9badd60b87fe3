// Convergence test: a variant main that reads the escalated knob from PHYSVEC_PARAM, the schedule of
// values to try, and the by-code check that the monitored value stopped moving.
import type { z } from 'zod';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { RunDigest, ScriptJob, ScriptSummary } from '../../schemas/pipeline.js';
import { replaceMain, verifyElementFunctionsUnchanged } from '../../lib/harness/index.js';
import { parseScript } from '../../lib/script-analysis/index.js';
import { agentOutputSchemas } from '../../schemas/agent-outputs.js';
import { parseTolerance } from '../../lib/tasks/truth.js';
import { DEFAULT_CONVERGENCE_TOLERANCE } from '../../lib/tasks/convergence-default.js';
import { readAnswer, type AnswerRef } from './answers.js';
import { observedNumbers } from './assertions.js';
import { extensionOf, loadStructure } from './script-summary.js';
import { jobId, type JobPurpose } from '../../schemas/job-purpose.js';
import { RESULT_MARKER } from '../../schemas/script-markers.js';
import { variantFailure, variantFaultReason, variantLines, type VariantLines } from '../../lib/harness/variant-verdict.js';

/** A convergence variant: the replacement main and the schedule of knob values it is escalated along. */
export type ConvergenceVariant = z.infer<(typeof agentOutputSchemas)['convergence-variant']>;

/**
 * The convergence variant of `summary` (main replaced) and the knob values to try. The variant comes
 * from an LLM answer (the reproduction) or is given directly (`variant`, e.g. a reference suite's files).
 */
export async function buildConvergenceJob(
  store: ArtifactStore,
  input: { summary: ScriptSummary; caseId: string } & ({ answer: AnswerRef; variant?: undefined } | { variant: ConvergenceVariant; answer?: undefined }),
): Promise<{ job?: ScriptJob; values: number[]; problem?: string; monitor?: string; lines?: VariantLines }> {
  const { structure } = await loadStructure(store, input.summary);
  const v = input.variant ?? (await readAnswer(store, input.answer, agentOutputSchemas['convergence-variant'], 'convergence variant'));
  const values: number[] = [];
  for (let x = v.schedule.start; x <= v.schedule.max + 1e-12 && values.length < 50; ) {
    values.push(x);
    const next = v.schedule.factor ? x * v.schedule.factor : x + (v.schedule.step ?? x);
    if (next <= x) break;
    x = next;
  }
  if (values.length === 0) return { values, problem: `the schedule has no knob value (start ${v.schedule.start}, max ${v.schedule.max}): start must not exceed max` };
  try {
    const text = replaceMain(structure, v.main);
    const variant = parseScript(text, input.summary.language);
    const changed = verifyElementFunctionsUnchanged(structure, variant);
    if (changed.length) return { values, problem: `the convergence variant changed element functions (${changed.map((c) => c.name).join(', ')})` };
    const file = `convergence_${input.caseId.replace(/[^a-z0-9]+/gi, '_')}.${extensionOf(input.summary.language)}`;
    const purpose: JobPurpose = { kind: 'convergence', case: input.caseId };
    const lines = variantLines(input.caseId, file, variant);
    return { job: { id: jobId(purpose), purpose, file, ref: await store.put(text, { name: file }) }, values, ...(v.monitor ? { monitor: v.monitor } : {}), ...(lines ? { lines } : {}) };
  } catch (err) {
    return { values, problem: `could not build the convergence variant: ${(err as Error).message}` };
  }
}

/** Largest change between two values of the monitored quantity, measured as the criterion says (default: absolute 1e-3). */
export function convergenceDelta(criteria: string, value: number[], previous: number[]): { delta: number; converged: boolean; reason: string } {
  const tol = parseTolerance(criteria) ?? DEFAULT_CONVERGENCE_TOLERANCE;
  const deltas = value.map((o, i) => (tol.type === 'relative' ? Math.abs(o - previous[i]!) / Math.max(Math.abs(previous[i]!), 1e-12) : Math.abs(o - previous[i]!)));
  const delta = Math.max(...deltas);
  const converged = delta <= tol.value;
  return { delta, converged, reason: `${tol.type} change ${delta.toPrecision(3)} ${converged ? '≤' : '>'} ${tol.value}${tol.stated ? '' : ' (criterion had no number; default used)'}` };
}

/**
 * One step judged by code. With `lines` (where the variant's own main is), a run that failed inside
 * that main, or ran and printed no number, is the convergence writer's fault (`writerFault`, issue
 * 27.1): it says nothing about the script, and the writer is asked to rewrite the variant.
 */
export function convergenceStep(input: { criteria: string; previous: unknown; run: RunDigest; lines?: VariantLines }): { value: unknown; delta: number | null; converged: boolean; reason: string; writerFault?: string } {
  const obs = observedNumbers(input.run.results);
  const fault = input.lines ? writerFault(input.lines, input.run, obs !== undefined) : undefined;
  if (fault) return { value: null, delta: null, converged: false, reason: fault, writerFault: fault };
  const value = obs ? (obs.length === 1 ? obs[0] : obs) : null;
  const prev = Array.isArray(input.previous) ? (input.previous as number[]) : typeof input.previous === 'number' ? [input.previous] : undefined;
  if (!obs || !prev || prev.length !== obs.length) return { value, delta: null, converged: false, reason: 'first value (nothing to compare yet)' };
  return { value, ...convergenceDelta(input.criteria, obs, prev) };
}

function writerFault(lines: VariantLines, run: RunDigest, printedNumber: boolean): string | undefined {
  if (run.exitCode === 0) return printedNumber ? undefined : `the variant ran but printed no numeric ${RESULT_MARKER} line`;
  const failure = variantFailure(lines, run);
  return failure.fault === 'variant' ? variantFaultReason(failure.where, run) : undefined;
}
