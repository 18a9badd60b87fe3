// Convergence test: a variant main that reads the escalated knob from PHYSVEC_PARAM, the schedule of
// values to try, and the by-code check that the monitored value stopped moving.
import type { ArtifactStore } from '../artifacts/store.js';
import type { RunDigest, ScriptJob, ScriptSummary } from '../../schemas/pipeline.js';
import { replaceMain, verifyElementFunctionsUnchanged } from '../../runners/harness/index.js';
import { parseScript } from '../../runners/structure/index.js';
import { agentOutputSchemas } from '../../schemas/agent-outputs.js';
import { parseTolerance } from '../../lib/tasks/truth.js';
import { readAnswer, type AnswerRef } from './answers.js';
import { observedNumbers } from './assertions.js';
import { extensionOf, loadStructure } from './script-summary.js';

export async function buildConvergenceJob(
  store: ArtifactStore,
  input: { summary: ScriptSummary; answer: AnswerRef; caseId: string },
): Promise<{ job?: ScriptJob; values: number[]; problem?: string }> {
  const { structure } = await loadStructure(store, input.summary);
  const v = await readAnswer(store, input.answer, agentOutputSchemas['convergence-variant'], 'convergence variant');
  const values: number[] = [];
  for (let x = v.schedule.start; x <= v.schedule.max + 1e-12 && values.length < 50; ) {
    values.push(x);
    const next = v.schedule.factor ? x * v.schedule.factor : x + (v.schedule.step ?? x);
    if (next <= x) break;
    x = next;
  }
  try {
    const text = replaceMain(structure, v.main);
    const changed = verifyElementFunctionsUnchanged(structure, parseScript(text, input.summary.language));
    if (changed.length) return { values, problem: `the convergence variant changed element functions (${changed.map((c) => c.name).join(', ')})` };
    const file = `convergence_${input.caseId.replace(/[^a-z0-9]+/gi, '_')}.${extensionOf(input.summary.language)}`;
    return { job: { id: input.caseId, file, ref: await store.put(text, { name: file }) }, values };
  } catch (err) {
    return { values, problem: `could not build the convergence variant: ${(err as Error).message}` };
  }
}

export function convergenceStep(input: { criteria: string; previous: unknown; run: RunDigest }): { value: unknown; delta: number | null; converged: boolean; reason: string } {
  const obs = observedNumbers(input.run.results);
  const value = obs ? (obs.length === 1 ? obs[0] : obs) : null;
  const prev = Array.isArray(input.previous) ? (input.previous as number[]) : typeof input.previous === 'number' ? [input.previous] : undefined;
  if (!obs || !prev || prev.length !== obs.length) return { value, delta: null, converged: false, reason: 'first value (nothing to compare yet)' };
  const tol = parseTolerance(input.criteria) ?? { type: 'absolute' as const, value: 1e-3, stated: false };
  const deltas = obs.map((o, i) => (tol.type === 'relative' ? Math.abs(o - prev[i]!) / Math.max(Math.abs(prev[i]!), 1e-12) : Math.abs(o - prev[i]!)));
  const delta = Math.max(...deltas);
  const converged = delta <= tol.value;
  return { value, delta, converged, reason: `${tol.type} change ${delta.toPrecision(3)} ${converged ? '≤' : '>'} ${tol.value}${tol.stated ? '' : ' (criterion had no number; default used)'}` };
}
