// Shapes of the reference-validation workflow: a script of our suite (a reference solution or one of
// its mutants) put through the verifiers' machinery with the variant mains the suite ships, instead
// of an LLM writing them. Small on purpose: scripts travel as artifact references.
import { z } from 'zod';
import { ScriptSummary } from './pipeline.js';

/** One textual edit of a script: `old` must occur exactly once and is replaced by `new`. */
export const SourceEdit = z.object({ old: z.string().min(1), new: z.string() }).strict();
export type SourceEdit = z.infer<typeof SourceEdit>;

export const ValidationInput = z.object({
  /** The task file, relative to `root` (or absolute). */
  taskFile: z.string().min(1),
  /** The script under test: the reference solution or a mutant, relative to `root`. */
  scriptPath: z.string().min(1),
  /**
   * The reference folder: solution.py (the yardstick for localisation), limiting/<k>.main.py,
   * scientific/<k>.main.py, convergence/<k>.main.py + <k>.schedule.json. Relative to `root`.
   */
  referenceDir: z.string().min(1),
  /** Dataset root the paths are relative to (default: the physvec repository). */
  root: z.string().optional(),
  /** A mutant: these edits are put into the script at `scriptPath` (its reference solution) before anything runs. */
  edits: z.array(SourceEdit).min(1).optional(),
  runTimeoutMs: z.number().int().positive().default(300_000),
});
export type ValidationInput = z.input<typeof ValidationInput>;

/** convergence/<k>.schedule.json: the knob values to try, and optionally the name of the value the full script prints for its own setting. */
export const ConvergenceSchedule = z
  .object({
    start: z.number(),
    factor: z.number().positive().optional(),
    step: z.number().positive().optional(),
    max: z.number(),
    /** `name` of the PHYSVEC_RESULT line the full script prints at its own setting; it must agree with the converged value. */
    monitor: z.string().min(1).optional(),
  })
  .refine((s) => s.factor !== undefined || s.step !== undefined, { message: 'give "factor" or "step" (how the knob grows)' })
  .refine((s) => s.max >= s.start, { message: '"max" must be at least "start"' });
export type ConvergenceSchedule = z.infer<typeof ConvergenceSchedule>;

export const ValidationCase = z.object({ id: z.string(), content: z.string(), truth: z.string() });

export const ValidationConvergenceCase = z.object({
  id: z.string(),
  parameter: z.string(),
  criteria: z.string(),
  variant: z.object({ main: z.string(), schedule: ConvergenceSchedule }).optional(),
  /** Why the case cannot be run (a missing or invalid file). */
  problem: z.string().optional(),
});
export type ValidationConvergenceCase = z.infer<typeof ValidationConvergenceCase>;

/** What the workflow needs, read once from the task file and the reference folder. */
export const ValidationMaterial = z.object({
  taskId: z.string(),
  topic: z.string(),
  profile: z.string(),
  script: ScriptSummary,
  reference: ScriptSummary,
  /** Limiting cases and scientific results (`limiting:<k>`, `scientific:<k>`) with their truths. */
  cases: z.array(ValidationCase),
  variants: z.array(z.object({ case: z.string(), main: z.string() })),
  /** Cases whose variant main is missing from the reference folder. */
  missing: z.array(z.object({ case: z.string(), problem: z.string() })),
  convergence: z.array(ValidationConvergenceCase),
});
export type ValidationMaterial = z.infer<typeof ValidationMaterial>;

export const ValidationStage = z.enum(['passed', 'programming', 'scientific']);
export type ValidationStage = z.infer<typeof ValidationStage>;

export const ValidationSummary = z.object({
  task: z.string(),
  script: z.string(),
  /** The full script ran to the end (exit 0). */
  executable: z.boolean(),
  /** Wall time of the full script's own run in the sandbox (the suite asks ≤ 2 min for a reference). */
  fullRunMs: z.number(),
  /** Problems of the structure check (the Author's script would be sent back before any test). */
  structureProblems: z.array(z.string()),
  /** Innermost element function of the crash's traceback. */
  programmingFault: z.string().optional(),
  programmingError: z.string().optional(),
  assertions: z.array(z.object({ case: z.string(), judge: z.string(), reason: z.string() })),
  passed: z.number().int(),
  total: z.number().int(),
  convergence: z.array(
    z.object({
      case: z.string(),
      converged: z.boolean(),
      at: z.number().nullable(),
      /** The full script's own setting agrees with the converged value (null: no monitor named, or not converged). */
      ownSetting: z.boolean().nullable(),
      reason: z.string(),
    }),
  ),
  /** The element function named: from the traceback (programming) or by differential localisation (scientific). */
  faultyFunction: z.string().optional(),
  /** How the localisation went: the failing case rerun, each function tried, and whether its replacement made the case pass. */
  localisation: z
    .object({
      case: z.string(),
      tried: z.array(z.object({ function: z.string(), passes: z.boolean(), reason: z.string() })),
      note: z.string(),
    })
    .optional(),
  stage: ValidationStage,
  wallMs: z.number(),
});
export type ValidationSummary = z.infer<typeof ValidationSummary>;

/**
 * mutants/<name>.json: a faulty variant of the reference solution, kept as the edits that make it (so it
 * follows the solution and shows its fault as a diff), and what the verifiers must find in it.
 */
export const MutantMeta = z.object({
  faultyFunction: z.string().min(1),
  expectedStage: z.enum(['programming', 'scientific']),
  fault: z.string().min(1),
  /** Which test catches it: unit | integration | assertion:<k> | scientific:<k> | rubric | convergence. */
  caughtBy: z.string().min(1),
  /** Applied in order to solution.py; each `old` must occur exactly once in the text at that point. */
  edits: z.array(SourceEdit).min(1),
});
export type MutantMeta = z.infer<typeof MutantMeta>;
