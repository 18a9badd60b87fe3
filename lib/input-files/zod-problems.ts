// zod issues → problems, one per offending field. zod reports a failed union as a single
// "Invalid input" holding every branch's issues; for recursive trees that hides the real field, so a
// caller can say which branch a value was meant to match and only that branch's issues are kept.
import type { z } from 'zod';
import { errorAt } from './problems.js';
import type { Problem } from '../../schemas/task.js';

type Issue = z.core.$ZodIssue;

/** Index of the union branch `value` was meant to match, or undefined when it cannot be told. */
export type BranchPicker = (value: unknown) => number | undefined;

export type Validated<T> = { ok: true; data: T } | { ok: false; problems: Problem[] };

export function validateWith<T>(schema: z.ZodType<T>, value: unknown, file: string, pickBranch?: BranchPicker): Validated<T> {
  const r = schema.safeParse(value);
  if (r.success) return { ok: true, data: r.data };
  return { ok: false, problems: zodIssuesToProblems(r.error.issues, value, file, pickBranch) };
}

export function zodIssuesToProblems(issues: readonly Issue[], input: unknown, file: string, pickBranch?: BranchPicker): Problem[] {
  return flatten(issues, input, [], pickBranch).map(({ path, message }) =>
    errorAt(file, message, path.length ? path.map(String).join('.') : undefined),
  );
}

interface FlatIssue {
  path: PropertyKey[];
  message: string;
}

function flatten(issues: readonly Issue[], input: unknown, prefix: PropertyKey[], pick?: BranchPicker): FlatIssue[] {
  const out: FlatIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) {
      out.push({ path, message: issue.message });
      continue;
    }
    const value = valueAt(input, issue.path);
    const literals = literalChoices(issue.errors);
    if (literals) {
      out.push({ path, message: `expected one of ${literals.join(', ')}, received ${JSON.stringify(value)}` });
      continue;
    }
    const branch = pick?.(value);
    const chosen = branch === undefined ? undefined : issue.errors[branch];
    if (chosen) out.push(...flatten(chosen, value, path, pick));
    else out.push({ path, message: issue.message });
  }
  return out;
}

/** A union of literals (e.g. 'TBD' | 0 | 1) fails as one invalid_value per branch; list the choices. */
function literalChoices(branches: readonly (readonly Issue[])[]): string[] | undefined {
  const values: string[] = [];
  for (const b of branches) {
    const only = b.length === 1 ? b[0] : undefined;
    if (!only || only.code !== 'invalid_value' || only.path.length !== 0) return undefined;
    values.push(...only.values.map((v) => JSON.stringify(v)));
  }
  return values;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}
