// Shapes that travel between the reproduction workflow and its pipeline activities. Small on
// purpose: scripts, harnesses, logs and reports are artifact references.
import { z } from 'zod';
import { ArtifactRef } from './artifact.js';
import { JobPurpose } from './job-purpose.js';
import { PausableStage } from './agent-roles.js';
import { ScriptLanguage } from './script-structure.js';

export const PipelineLimits = z.object({
  authorStructureRetries: z.number().int().min(0).max(10).default(3),
  programmingIterations: z.number().int().min(1).max(50).default(8),
  scientificIterations: z.number().int().min(1).max(50).default(4),
  rubricRepeats: z.number().int().min(1).max(10).default(2),
  convergenceMaxSteps: z.number().int().min(2).max(50).default(6),
  runTimeoutMs: z.number().int().positive().default(300_000),
});
export type PipelineLimits = z.infer<typeof PipelineLimits>;

export const ModelChoice = z.object({
  defaultModel: z.string(),
  roles: z.record(z.string(), z.string()).default({}),
});
export type ModelChoice = z.infer<typeof ModelChoice>;

/** `scaled`: the task as the suite runs it; `full`: with its full-size parameters (`scaled.parameters.*.full`), simulations on the large queue. */
export const TaskSize = z.enum(['scaled', 'full']);
export type TaskSize = z.infer<typeof TaskSize>;

export const ReproductionInput = z.object({
  taskFile: z.string(),
  datasetRoot: z.string().optional(),
  toolchain: z.string().optional(),
  /** Absent: scaled (the command sequence of a default run does not change). */
  size: TaskSize.optional(),
  models: ModelChoice,
  /** `deadlineMs`: from the run's start, how long LLM calls may keep retrying a provider outage (absent: 30 min per call, as before). */
  budget: z.object({ maxTokens: z.number().positive().optional(), maxUsd: z.number().positive().optional(), deadlineMs: z.number().int().positive().optional() }).default({}),
  limits: PipelineLimits.partial().default({}),
  /** Stop after these stages and wait for a `resume` signal (human in the loop). */
  pauseAfter: z.array(PausableStage).default([]),
});
export type ReproductionInput = z.input<typeof ReproductionInput>;

export const CaseSpec = z.object({
  /** `limiting:<k>`, `scientific:<k>`, `convergence:<k>` */
  id: z.string(),
  content: z.string(),
});
export type CaseSpec = z.infer<typeof CaseSpec>;

/** What the workflow knows about its task. Truths stay in the workflow; script writers only see `content`. */
export const TaskContext = z.object({
  taskId: z.string(),
  topic: z.string(),
  figure: z.string(),
  profile: z.string(),
  language: ScriptLanguage,
  request: z.string(),
  substitution: z.object({ substituted: z.boolean(), note: z.string().optional(), original: z.string().optional(), adaptedLeaves: z.array(z.object({ index: z.number(), from: z.string(), to: z.string() })).default([]) }),
  sourceRef: ArtifactRef.optional(),
  /** What the source artifact holds first; `protocol`: only the article's calculation protocol (dft_qc tasks without TeX). */
  sourceKind: z.enum(['tex', 'digest', 'protocol', 'none']),
  /** QMP-Bench dft tasks: the article's ORCA protocol (part of the source artifact) and, with a substitute, its translation. */
  protocol: z
    .object({
      found: z.boolean(),
      file: z.string().optional(),
      /** File names tried when it was not found. */
      tried: z.array(z.string()).default([]),
      calculations: z.number().int(),
      translation: z.object({ from: z.string(), to: z.string(), rowsRef: ArtifactRef, counts: z.record(z.string(), z.number()) }).optional(),
    })
    .optional(),
  rubric: z.object({ available: z.boolean(), file: z.string().optional(), leavesRef: ArtifactRef.optional(), leafCount: z.number().int(), normCheck: z.boolean().optional(), reason: z.string().optional() }),
  limitingCases: z.array(CaseSpec.extend({ truth: z.string() })),
  scientificResults: z.array(CaseSpec.extend({ truth: z.string() })),
  convergenceCases: z.array(CaseSpec.extend({ parameter: z.string(), criteria: z.string() })),
  backgroundRef: ArtifactRef.optional(),
  backgroundNames: z.array(z.string()).default([]),
  /** A `--size full` run: the scaled parameters and the full values the request asked for (absent otherwise). */
  /** Values the article itself states although a truth has them (data/papers/published-values.json): the leak guard lets them through. */
  publishedValues: z.array(z.object({ value: z.number(), source: z.string() })).optional(),
  /** The size the request asked (`--size`) and the task's scaled parameters (full and scaled values): the report compares what the final run used. */
  sizeAsked: z.object({ size: z.enum(['scaled', 'full']), parameters: z.array(z.object({ name: z.string(), full: z.unknown(), used: z.unknown() })) }).optional(),
  fullSize: z.object({ parameters: z.array(z.object({ name: z.string(), full: z.unknown(), used: z.unknown() })) }).optional(),
});
export type TaskContext = z.infer<typeof TaskContext>;

export const ScriptSummary = z.object({
  scriptRef: ArtifactRef,
  /** The script with its function bodies left out (lib/script-analysis/script-interface.ts): what a variant-main rewrite is shown. */
  interfaceRef: ArtifactRef.optional(),
  language: ScriptLanguage,
  /** `hash`: of the function's source (absent in summaries recorded before): a kept unit test is reused while it is unchanged. */
  elementFunctions: z.array(z.object({ name: z.string(), category: z.string(), hash: z.string().optional() })),
  runFunctions: z.array(z.object({ name: z.string(), calls: z.array(z.string()) })),
  problems: z.array(z.string()),
});
export type ScriptSummary = z.infer<typeof ScriptSummary>;

export const ScriptJob = z.object({
  /** `jobId(purpose)`: the sandbox label and the run digest's id. */
  id: z.string(),
  purpose: JobPurpose,
  file: z.string(),
  ref: ArtifactRef,
  env: z.record(z.string(), z.string()).optional(),
});
export type ScriptJob = z.infer<typeof ScriptJob>;

export const RunDigest = z.object({
  id: z.string(),
  /** The job's purpose (absent in digests recorded before jobs carried one, and in hand-made digests). */
  purpose: JobPurpose.optional(),
  exitCode: z.number().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  stdoutTail: z.string(),
  stderrTail: z.string(),
  results: z.array(z.unknown()),
  files: z.array(z.object({ path: z.string(), ref: ArtifactRef })),
  missingProtections: z.array(z.string()).default([]),
  /** Why the sandbox killed the run, in words ("timed out (limit 300 s)", "killed: out of memory"); absent when it ended by itself. */
  killed: z.string().optional(),
  /** Why the run's checkpoint was not snapshotted (e.g. too many files): a retried run would start over. */
  checkpointSkipped: z.string().optional(),
});
export type RunDigest = z.infer<typeof RunDigest>;

export const UnitVerdict = z.object({
  target_file_name: z.string(),
  function: z.string(),
  judge: z.enum(['correct', 'wrong', 'undetermined']),
  errors: z.string(),
  /** The element function a wrong verdict names (the innermost script frame of the traceback). */
  blame: z.string().optional(),
  /** How many times the test writer rewrote this test after it failed inside its harness. */
  refines: z.number().int().optional(),
  /** The entry point of an undetermined test, shown to its writer when it rewrites the test. */
  entry: z.string().optional(),
  /** The test is one rewritten in an earlier iteration and kept (its function unchanged): not written again. */
  kept: z.boolean().optional(),
  /** An undetermined test's harness with the verifier library's code left out: what its writer is shown in a refine instead of the whole script. */
  harnessRef: ArtifactRef.optional(),
});
/** A unit test rewritten by its writer that decided (ran its function): reused while the function's source hash is the same. */
export const KeptUnitTest = z.object({ function: z.string(), hash: z.string(), main: z.string() });
export type KeptUnitTest = z.infer<typeof KeptUnitTest>;
export const RunFunctionReport = z.object({
  run_function: z.string(),
  error_analysis: z.string(),
  correct_ratio: z.number(),
  successful_element_functions: z.array(z.string()),
  failed_level: z.number().nullable(),
  /** The function the failed level's traceback is in (innermost element function of the script). */
  blame: z.string().optional(),
  /** Its levels failed although the full script ran, and were rebuilt keeping all of main (the slice was at fault). */
  rebuilt: z.boolean().optional(),
});
export const ProgrammingReport = z.object({
  iteration: z.number().int(),
  judge_result: z.array(UnitVerdict),
  run_functions: z.array(RunFunctionReport),
  /** run_ functions without integration levels (not reached from main, or calling no element function). */
  untested: z.array(z.object({ run_function: z.string(), reason: z.string() })).default([]),
  unitAccuracy: z.number(),
  integrationAccuracy: z.number(),
  executable: z.boolean(),
  fullRunError: z.string().optional(),
  reportRef: ArtifactRef,
  /** Unit tests to keep for the next iteration (absent in reports recorded before tests were kept). */
  keep: z.array(KeptUnitTest).optional(),
});
export type ProgrammingReport = z.infer<typeof ProgrammingReport>;

export const AssertionVerdict = z.object({
  case: z.string(),
  content: z.string(),
  truth: z.string(),
  judge: z.enum(['correct', 'wrong', 'undetermined', 'error']),
  method: z.enum(['numeric', 'property', 'llm', 'none']),
  observed: z.unknown().optional(),
  expected: z.unknown().optional(),
  reason: z.string(),
  exitCode: z.number().nullable(),
  /**
   * The variant's own code failed (its main raised, printed no result, or could not be built), not
   * the script: undetermined, goes back to the assertion writer, never counts against the script.
   */
  variantFault: z.boolean().optional(),
});
export type AssertionVerdict = z.infer<typeof AssertionVerdict>;

export const RubricOutcome = z.object({
  available: z.boolean(),
  grades: z.array(z.number()),
  gradeMean: z.number().nullable(),
  gradeStd: z.number().nullable(),
  failed: z.array(z.object({ index: z.number(), issue: z.string(), support: z.string() })),
  reportRef: ArtifactRef.optional(),
  reason: z.string().optional(),
});
export type RubricOutcome = z.infer<typeof RubricOutcome>;

export const ConvergenceOutcome = z.object({
  case: z.string(),
  parameter: z.string(),
  criteria: z.string(),
  sequence: z.array(z.object({ param: z.number(), value: z.unknown(), delta: z.number().nullable(), exitCode: z.number().nullable() })),
  converged: z.boolean(),
  convergedAt: z.number().nullable(),
  reason: z.string(),
  /** The script's own PHYSVEC_RESULT line for the monitored quantity (named by the convergence writer). */
  monitor: z.string().optional(),
  /** Whether the script's own setting gives the converged value (its final run compared with it). */
  ownSetting: z.object({ pass: z.boolean(), own: z.array(z.number()).nullable(), reason: z.string() }).optional(),
  /** The writer's variant still failed in its own code after its rewrites: excluded, it says nothing about the script. */
  writerFault: z.boolean().optional(),
});
export type ConvergenceOutcome = z.infer<typeof ConvergenceOutcome>;

export const RepairOutcome = z.object({
  summary: ScriptSummary,
  diffRef: ArtifactRef,
  diffPreview: z.string(),
  changedFunctions: z.array(z.string()),
  problems: z.array(z.string()),
  /** Suspects the repairer was asked to keep to (a scientific repair), most suspicious first. */
  suspects: z.array(z.string()).optional(),
  /** Element functions the diff changed that were not suspects. */
  unsuspectedChanges: z.array(z.string()).optional(),
});
export type RepairOutcome = z.infer<typeof RepairOutcome>;

/** A repair as the run records it and the report shows it: which stage and iteration asked, what changed. */
export const RepairRecord = z.object({
  stage: z.string(),
  iteration: z.number().int(),
  outcome: RepairOutcome,
  /** The repairer's suggestion list, one item per problem it found. */
  suggestions: z.array(z.string()),
});
export type RepairRecord = z.infer<typeof RepairRecord>;
