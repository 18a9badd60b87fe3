// A QMP-Bench task file, modelled on the files the PhysVEC authors published (Paper_dataset/<topic>/tasks),
// plus the optional fields our own suite adds. Unknown keys pass through so that a future key in a
// published file never breaks loading; a missing or mistyped known key fails with its path.
import { z } from 'zod';
import { RubricLeafSummary, RubricTree } from './rubric.js';

/** Canonical topic names used throughout physvec (the paper's names, plus our DFT suite). */
export const Topic = z.enum(['dmrg', 'nqs', 'qsim', 'dft']);
export type Topic = z.infer<typeof Topic>;

/** What a task's `topic` field may say: a canonical name or the dataset folder name (nnwf = nqs, qcmb = qsim, dft_qc = dft). */
export const TopicName = z.enum(['dmrg', 'nqs', 'qsim', 'dft', 'nnwf', 'qcmb', 'dft_qc']);
export type TopicName = z.infer<typeof TopicName>;

const text = z.string().min(1, 'must be a non-empty string');

/** A limiting case: what to compute, and the truth with its tolerance sentence (prose). */
export const LimitingCase = z.object({ content: text, truth: text }).loose();
export type LimitingCase = z.infer<typeof LimitingCase>;

/** A convergence case: what to print, which knob to raise, and the stability criterion. */
export const ConvergenceCase = z.object({ content: text, parameter: text, criteria: text }).loose();
export type ConvergenceCase = z.infer<typeof ConvergenceCase>;

/** A value read off the paper's figure; same form as a limiting case. */
export const ScientificResult = z.object({ content: text, truth: text }).loose();
export type ScientificResult = z.infer<typeof ScientificResult>;

/**
 * One parameter we shrank to keep a run affordable: its full-size value (the paper's, or what a full-size
 * calculation would use where the paper gives none) and the value this task uses.
 */
export const ScaledParameter = z
  .object({ full: z.json(), used: z.json(), note: z.string().optional() })
  .strict();
export type ScaledParameter = z.infer<typeof ScaledParameter>;

/**
 * Our own field: how this task departs from the full-size calculation of the paper, and why. One shape for
 * every task of the suite: `{ "reason": "...", "parameters": { "<name>": { "full": ..., "used": ... } } }`.
 * `parameters` lists exactly the scaled parameters (full ≠ used); it is empty when the task runs at the
 * article's size and `reason` says how it departs otherwise. Strict, because the field is ours: a stray key
 * (e.g. an old `note`/`full`/`here` layout) is an error that names it.
 */
export const ScaledSpec = z
  .object({
    reason: text,
    parameters: z.record(z.string(), ScaledParameter),
  })
  .strict()
  .superRefine((spec, ctx) => {
    for (const [name, p] of Object.entries(spec.parameters)) {
      if (JSON.stringify(p.full) === JSON.stringify(p.used)) {
        ctx.addIssue({ code: 'custom', path: ['parameters', name], message: `full and used are the same (${JSON.stringify(p.used)}): list only parameters that were scaled` });
      }
    }
  });
export type ScaledSpec = z.infer<typeof ScaledSpec>;

export const Task = z
  .object({
    pdf_path: z.string(),
    pdf_name: text,
    subplot_name: text,
    User_requests: text,
    rubrics_name: text,
    LimitingCases: z.array(LimitingCase).optional(),
    ConvergenceCases: z.array(ConvergenceCase).optional(),
    ScientificResults: z.array(ScientificResult).optional(),
    // Our optional fields (never present in the published files).
    topic: TopicName.optional(),
    toolchain: text.optional(),
    id: text.optional(),
    scaled: ScaledSpec.optional(),
    /** Path of our paper digest, relative to the dataset root (e.g. `data/papers/<pdf_name>.md`). */
    digest: text.optional(),
    /** Path of a reference solution, relative to the dataset root. */
    reference: text.optional(),
  })
  .loose();
export type Task = z.infer<typeof Task>;

export const ProblemSeverity = z.enum(['error', 'warning']);

/** Something wrong (error) or worth knowing (warning) about one input file. */
export const Problem = z.object({
  severity: ProblemSeverity,
  file: z.string(),
  /** Dotted field path inside the file, when the problem is about one field. */
  field: z.string().optional(),
  message: z.string(),
});
export type Problem = z.infer<typeof Problem>;

/** Which directory layout a task came from. `standalone`: a lone task file outside any known layout. */
export const DatasetLayout = z.enum(['qmp-bench', 'physvec', 'standalone']);
export type DatasetLayout = z.infer<typeof DatasetLayout>;

/** A companion file of a task (source, digest, reference). `path` is null when there is nowhere to look. */
export const CompanionFile = z.object({
  path: z.string().nullable(),
  found: z.boolean(),
  text: z.string().optional(),
  /** When not found: every path that was tried, in order. */
  tried: z.array(z.string()).optional(),
});
export type CompanionFile = z.infer<typeof CompanionFile>;

export const NormCheckResult = z.object({ ok: z.boolean(), total: z.number() });
export type NormCheckResult = z.infer<typeof NormCheckResult>;

export const RubricStatus = z.object({
  path: z.string().nullable(),
  found: z.boolean(),
  tree: RubricTree.optional(),
  leaves: z.array(RubricLeafSummary).optional(),
  normCheck: NormCheckResult.optional(),
});
export type RubricStatus = z.infer<typeof RubricStatus>;

export const TaskCounts = z.object({
  limitingCases: z.number().int(),
  convergenceCases: z.number().int(),
  scientificResults: z.number().int(),
  rubricLeaves: z.number().int(),
});
export type TaskCounts = z.infer<typeof TaskCounts>;

/** A task file after loading: the validated task plus what the dataset has (or lacks) around it. */
export const LoadedTask = z.object({
  /** File stem, e.g. `task_dmrg_7_2`. */
  id: z.string(),
  topic: Topic,
  /** The folder the task sits in (`nnwf`, `qcmb`, … or our canonical names). */
  topicFolder: z.string(),
  layout: DatasetLayout,
  /** Dataset root the companion paths were resolved against (null for standalone files). */
  root: z.string().nullable(),
  file: z.string(),
  task: Task,
  source: CompanionFile,
  /** dft tasks of QMP-Bench: the article's calculation protocol (ORCA inputs); `calculations` when it loaded. */
  protocol: CompanionFile.extend({ calculations: z.number().int().optional() }),
  digest: CompanionFile,
  reference: CompanionFile,
  rubric: RubricStatus,
  counts: TaskCounts,
  /** Input quirks seen while reading (BOM, CRLF); informational. */
  encoding: z.object({ bom: z.boolean(), crlf: z.boolean() }),
  /** This task's own problems (its file, its rubric, its companion paths). */
  problems: z.array(Problem),
});
export type LoadedTask = z.infer<typeof LoadedTask>;
