// A dft_qc article's calculation protocol, as QMP-Bench publishes it (Paper_dataset/dft_qc/quantum_chemistry/
// <name>.json): the article's ORCA calculations, one entry each. Unknown keys pass through (a future key
// in a published file must not break loading); a missing or mistyped known key fails with its path.
// Also the data-driven ORCA → substitute translation table (data/protocol-translations/*.json).
import { z } from 'zod';

const text = z.string().min(1, 'must be a non-empty string');

export const OrcaCalculation = z
  .object({
    id: text,
    title_of_calculation: z.string(),
    /** The `!` keyword lines and `%` blocks of one ORCA input. */
    input_command: text,
    /** The coordinate block; in the published files it holds placeholders, not coordinates. */
    xyzfile: z.string().optional(),
  })
  .loose();
export type OrcaCalculation = z.infer<typeof OrcaCalculation>;

export const OrcaProtocol = z
  .object({
    pdf_name: z.string(),
    orca_inputs: z.array(OrcaCalculation).min(1, 'lists no calculation; give at least one {id, title_of_calculation, input_command}'),
  })
  .loose();
export type OrcaProtocol = z.infer<typeof OrcaProtocol>;

/** How close the substitute's counterpart is. */
export const TranslationStatus = z.enum(['equivalent', 'nearest', 'no equivalent', 'not needed']);
export type TranslationStatus = z.infer<typeof TranslationStatus>;

export const TranslationCategory = z.enum([
  'method', 'reference', 'basis', 'auxiliary basis', 'relativistic', 'solvation', 'scf', 'grid', 'job',
  'excited states', 'multireference', 'spin-orbit', 'orbitals', 'resources', 'output', 'geometry',
]);
export type TranslationCategory = z.infer<typeof TranslationCategory>;

function validRegex(pattern: string, ctx: z.RefinementCtx): void {
  try {
    new RegExp(`^(?:${pattern})$`, 'i');
  } catch (e) {
    ctx.addIssue({ code: 'custom', path: ['match'], message: `not a valid regular expression: ${(e as Error).message}` });
  }
}

/**
 * One rule: an ORCA `!` keyword, a `%` block, or a setting inside a block, matched whole and
 * case-insensitively by `match` (a JavaScript regular expression; `$1`… of it may appear in `target`
 * and `differs`).
 */
export const TranslationRule = z
  .object({
    kind: z.enum(['keyword', 'block', 'setting']),
    /** For settings: the block they belong to (lower case, without %). */
    block: z.string().regex(/^[a-z]+$/).optional(),
    match: text,
    category: TranslationCategory,
    /** What to write in the substitute (code or the substitute's name for it); "—" when there is none. */
    target: text,
    status: TranslationStatus,
    /** What differs from the original, when anything does. */
    differs: z.string().optional(),
    /**
     * Python that shows the target does what the row says, run against the installed substitute on a tiny
     * molecule by tests/toolchains/translation-exec.test.ts (helpers there). Required of every equivalent
     * or nearest rule unless `unchecked` says why it cannot run here.
     */
    check: z.string().min(1).optional(),
    /** Why `check` cannot be run here (a package the target needs is not installed). */
    unchecked: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    validRegex(r.match, ctx);
    const claims = r.status === 'equivalent' || r.status === 'nearest';
    if (claims && (r.check === undefined) === (r.unchecked === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['check'], message: `an ${r.status} rule gives exactly one of "check" (Python that runs its target) and "unchecked" (why it cannot run here)` });
    }
    if (r.kind === 'setting' && !r.block) ctx.addIssue({ code: 'custom', path: ['block'], message: 'a setting rule names its block (e.g. "tddft")' });
  });
export type TranslationRule = z.infer<typeof TranslationRule>;

export const TranslationTable = z
  .object({
    $comment: z.string().optional(),
    /** Profile names: the original program and its substitute (data/toolchains.json). */
    from: z.string().min(1),
    to: z.string().min(1),
    rules: z.array(TranslationRule).min(1),
  })
  .strict();
export type TranslationTable = z.infer<typeof TranslationTable>;

/** One row of a task's translation table: an ORCA item as written, where it is used, and its counterpart. */
export const TranslationRow = z.object({
  /** `line`: text the parser could not place (outside any `!` line or `%` block). */
  kind: z.enum(['keyword', 'block', 'setting', 'line']),
  /** As written in the input (`def2-TZVP(-f)`, `%tddft`, `%tddft NRoots 40`). */
  orca: z.string(),
  /** Ids of the calculations that use it. */
  usedIn: z.array(z.string()),
  category: z.string(),
  target: z.string(),
  status: z.union([TranslationStatus, z.literal('not translated')]),
  differs: z.string().optional(),
  /** A condition written in prose beside the keyword (`CPCM(if complex carries non-zero charge)`): use it only then. */
  condition: z.string().optional(),
});
export type TranslationRow = z.infer<typeof TranslationRow>;
