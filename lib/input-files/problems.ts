// Problems found while reading input files, and the one way they are printed and raised.
import { BadInputError } from '../errors.js';
import type { Problem } from '../../schemas/task.js';

export function errorAt(file: string, message: string, field?: string): Problem {
  return field === undefined ? { severity: 'error', file, message } : { severity: 'error', file, field, message };
}

export function warningAt(file: string, message: string, field?: string): Problem {
  return field === undefined ? { severity: 'warning', file, message } : { severity: 'warning', file, field, message };
}

/** `<file>: <field>: <message>`, the same shape lib/errors.ts gives zod errors. */
export function formatProblem(p: Problem): string {
  return p.field ? `${p.file}: ${p.field}: ${p.message}` : `${p.file}: ${p.message}`;
}

/** Raises the error-severity problems as one BadInputError (CLI exit code 2); warnings are left alone. */
export function throwIfErrors(problems: readonly Problem[]): void {
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length === 0) return;
  const first = errors[0]!;
  throw new BadInputError(errors.map(formatProblem).join('\n'), first.file, first.field);
}
