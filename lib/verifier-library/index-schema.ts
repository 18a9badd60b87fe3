// data/verifier-library/<profile>/index.json: the background element functions that passed their
// own check, by the element category they can stand in for, with the toolchain version they were
// verified with. Julia entries that could not be run here are listed as `unverified`.
import { z } from 'zod';
import { ElementCategory } from '../../schemas/script-structure.js';

export const VerifierLanguage = z.enum(['python', 'julia']);
export type VerifierLanguage = z.infer<typeof VerifierLanguage>;

/** What a verifier function may be: the element categories that compute something (not item_/plot_). */
export const VerifierCategory = ElementCategory.exclude(['item', 'plot']);
export type VerifierCategory = z.infer<typeof VerifierCategory>;

const FileName = z.string().regex(/^[a-z][a-z0-9_]*(\.check)?\.(py|jl)$/, 'a file name such as "effector_verifier_dmrg.py"');

export const VerifiedWith = z
  .object({
    /** Version of the profile's primary package (physics-tenpy, netket, qiskit, pyscf, ITensors). */
    toolchainVersion: z.string(),
    /** Every version the detection probe reported (numpy, jax, qiskit-aer, …). */
    packages: z.record(z.string(), z.string()),
    /** ISO time of the passing check. */
    at: z.iso.datetime(),
  })
  .strict();
export type VerifiedWith = z.infer<typeof VerifiedWith>;

export const VerifierEntry = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9]*_verifier_[a-z0-9_]+$/, 'a name of the form <category>_verifier_<what>'),
    category: VerifierCategory,
    profile: z.string(),
    language: VerifierLanguage,
    file: FileName,
    /** The def/function line as written. */
    signature: z.string(),
    params: z.array(z.string()),
    /** The docstring: what element it stands in for, its arguments and what it returns. */
    doc: z.string(),
    check: z
      .object({
        file: FileName,
        /** The `# expected:` line of the check, in words. */
        expected: z.string(),
        /** Other library functions the check combines with this one (the `# uses:` line). */
        uses: z.array(z.string()),
        /** The last PHYSVEC_RESULT value the passing check printed. */
        result: z.json().optional(),
        durationMs: z.number().nonnegative().optional(),
      })
      .strict(),
    status: z.enum(['verified', 'unverified']),
    /** Null for unverified entries. */
    verifiedWith: VerifiedWith.nullable(),
    /** Why an entry is unverified (e.g. julia is not installed here). */
    note: z.string().optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (!e.name.startsWith(`${e.category}_`)) ctx.addIssue({ code: 'custom', path: ['category'], message: `"${e.name}" does not start with "${e.category}_"` });
    if ((e.status === 'verified') !== (e.verifiedWith !== null)) {
      ctx.addIssue({ code: 'custom', path: ['verifiedWith'], message: 'a verified entry records verifiedWith; an unverified one has null' });
    }
  });
export type VerifierEntry = z.infer<typeof VerifierEntry>;

export const VerifierIndex = z.array(VerifierEntry).superRefine((entries, ctx) => {
  const names = entries.map((e) => e.name);
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `"${n}" is listed twice` });
  });
});
export type VerifierIndex = z.infer<typeof VerifierIndex>;
