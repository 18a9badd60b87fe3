// What `physvec tasks prepare` says about each task after running everything a reproduction does before
// its first LLM call: the toolchain (and substitute), the source the Author gets, what the rubric and
// scientific tests will be, and what the task lacks. Pure: built from the prepared TaskContext.
import type { TaskContext } from '../../schemas/pipeline.js';
import { parseTolerance, parseTruth } from './truth.js';

export interface TruthCounts {
  cases: number;
  /** Compared with the number by code. */
  numeric: number;
  /** A symmetric/constant property checked by code. */
  property: number;
  /** No number and no checkable property: an LLM judges it. */
  llm: number;
  /** Numeric truths that state no tolerance (the default is used). */
  defaultTolerance: number;
}

export interface PreparedTaskLine {
  id: string;
  file: string;
  topic: string | null;
  preparable: boolean;
  /** Why it cannot be prepared here (the one-line error a reproduction would stop with). */
  error?: string;
  profile?: string;
  /** The profile stood in for, when a substitution was made. */
  substituteFor?: string;
  /** The flag a reproduction needs to run it here (the task demands an absent package; the substitute is not taken unasked). */
  needsFlag?: string;
  source?: TaskContext['sourceKind'];
  protocol?: 'found' | 'not published';
  /** The protocol file this task resolved to (dft_qc), when found. */
  protocolFile?: string;
  protocolTried?: string[];
  translation?: Record<string, number>;
  rubric?: { available: boolean; leaves: number; adaptedLeaves: number; reason?: string };
  limiting?: TruthCounts;
  scientific?: TruthCounts;
  convergence?: { cases: number; defaultCriteria: number };
  verifierLibrary?: number;
  /** What a reproduction of this task will not have. */
  lacks: string[];
}

export interface TopicPrepareSummary {
  tasks: number;
  preparable: number;
  /** "tenpy for itensors" / "qiskit" → tasks. */
  toolchains: Record<string, number>;
  sources: Record<string, number>;
  withRubric: number;
  limitingCases: number;
  scientificResults: number;
  convergenceCases: number;
  llmJudged: number;
  defaultTolerances: number;
}

export function truthCounts(cases: readonly { truth: string }[]): TruthCounts {
  const out: TruthCounts = { cases: cases.length, numeric: 0, property: 0, llm: 0, defaultTolerance: 0 };
  for (const c of cases) {
    const t = parseTruth(c.truth);
    if (t.kind === 'numeric') {
      out.numeric++;
      if (!t.tolerance.stated) out.defaultTolerance++;
    } else if (t.property) out.property++;
    else out.llm++;
  }
  return out;
}

export function preparedLine(ctx: TaskContext, file: string, verifierFunctions: number): PreparedTaskLine {
  const limiting = truthCounts(ctx.limitingCases);
  const scientific = truthCounts(ctx.scientificResults);
  const convergence = { cases: ctx.convergenceCases.length, defaultCriteria: ctx.convergenceCases.filter((c) => !parseTolerance(c.criteria)).length };
  const lacks: string[] = [];
  if (ctx.sourceKind === 'none') lacks.push('article source (not published)');
  else if (ctx.sourceKind === 'protocol') lacks.push('TeX source (the protocol stands in)');
  if (ctx.protocol && !ctx.protocol.found) lacks.push(`protocol (not published; tried ${ctx.protocol.tried.join(', ')})`);
  if (!ctx.rubric.available) lacks.push(`rubric (${ctx.rubric.reason ?? 'not available'})`);
  if (limiting.cases + scientific.cases + convergence.cases === 0) lacks.push('scientific-test cases (none defined)');
  const noEq = ctx.protocol?.translation?.counts.noEquivalent ?? 0;
  if (noEq > 0) lacks.push(`${noEq} protocol item(s) with no ${ctx.profile} equivalent`);
  if (verifierFunctions === 0) lacks.push(`verifier library for ${ctx.profile}`);
  const line: PreparedTaskLine = {
    id: ctx.taskId,
    file,
    topic: ctx.topic,
    preparable: true,
    profile: ctx.profile,
    source: ctx.sourceKind,
    rubric: { available: ctx.rubric.available, leaves: ctx.rubric.leafCount, adaptedLeaves: ctx.substitution.adaptedLeaves.length, ...(ctx.rubric.reason ? { reason: ctx.rubric.reason } : {}) },
    limiting,
    scientific,
    convergence,
    verifierLibrary: verifierFunctions,
    lacks,
  };
  if (ctx.substitution.substituted && ctx.substitution.original) line.substituteFor = ctx.substitution.original;
  if (ctx.protocol) {
    line.protocol = ctx.protocol.found ? 'found' : 'not published';
    if (!ctx.protocol.found) line.protocolTried = ctx.protocol.tried;
    if (ctx.protocol.file) line.protocolFile = ctx.protocol.file;
    if (ctx.protocol.translation) line.translation = ctx.protocol.translation.counts;
  }
  return line;
}

export function summariseByTopic(lines: readonly PreparedTaskLine[]): Record<string, TopicPrepareSummary> {
  const out: Record<string, TopicPrepareSummary> = {};
  for (const l of lines) {
    const topic = l.topic ?? '?';
    const s = (out[topic] ??= { tasks: 0, preparable: 0, toolchains: {}, sources: {}, withRubric: 0, limitingCases: 0, scientificResults: 0, convergenceCases: 0, llmJudged: 0, defaultTolerances: 0 });
    s.tasks++;
    if (!l.preparable) continue;
    s.preparable++;
    const tc = toolchainLabel(l);
    s.toolchains[tc] = (s.toolchains[tc] ?? 0) + 1;
    s.sources[l.source!] = (s.sources[l.source!] ?? 0) + 1;
    if (l.rubric?.available) s.withRubric++;
    s.limitingCases += l.limiting?.cases ?? 0;
    s.scientificResults += l.scientific?.cases ?? 0;
    s.convergenceCases += l.convergence?.cases ?? 0;
    s.llmJudged += (l.limiting?.llm ?? 0) + (l.scientific?.llm ?? 0);
    s.defaultTolerances += (l.limiting?.defaultTolerance ?? 0) + (l.scientific?.defaultTolerance ?? 0) + (l.convergence?.defaultCriteria ?? 0);
  }
  return out;
}

/** `tenpy for itensors (with --toolchain tenpy)`, `qiskit`, or `-` when not preparable. */
export function toolchainLabel(l: PreparedTaskLine): string {
  if (!l.preparable) return '-';
  const base = l.substituteFor ? `${l.profile} for ${l.substituteFor}` : l.profile!;
  return l.needsFlag ? `${base} (with ${l.needsFlag})` : base;
}
