// Command-line flags named the way the user typed them: commander hands options over in camelCase,
// and a zod issue on one of them must say `--stop-after-passes "x": expected a whole number`, not
// `stopAfterPasses: Invalid input: expected number, received NaN`.
import type { Command } from 'commander';
import type { ZodError } from 'zod';
import { BadInputError } from '../lib/errors.js';

/** `stopAfterPasses` → `--stop-after-passes`. */
export function flagName(option: string): string {
  return `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

type Issue = ZodError['issues'][number];

/** What the flag wants, in words a person can act on. */
function wanted(i: Issue): string {
  const x = i as Issue & { expected?: string; minimum?: number | bigint; maximum?: number | bigint; inclusive?: boolean; values?: unknown[]; format?: string; origin?: string };
  if (i.code === 'invalid_type' && x.expected === 'number') return 'expected a number';
  if (i.code === 'invalid_type' && x.expected === 'int') return 'expected a whole number';
  if (i.code === 'too_small' && x.origin === 'number') return `expected a number ${x.inclusive ? '≥' : '>'} ${x.minimum}`;
  if (i.code === 'too_big' && x.origin === 'number') return `expected a number ${x.inclusive ? '≤' : '<'} ${x.maximum}`;
  if (i.code === 'invalid_format' || (i.code === 'invalid_type' && /int/.test(i.message))) return 'expected a whole number';
  if (i.code === 'invalid_value' && x.values) return `expected one of ${x.values.join(', ')}`;
  return i.message;
}

/** One line per issue, `<flag> "<value given>": <what it expects>`; `flagOf` renames fields that no single flag sets. */
export function badFlags(error: ZodError, flagOf: Record<string, string> = {}, given: Record<string, unknown> = {}): BadInputError {
  return new BadInputError(
    error.issues
      .map((i) => {
        const field = String(i.path[0] ?? '');
        const value = given[field];
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- raw command-line values: strings, numbers, booleans, string lists
        const shown = value === undefined || typeof value === 'boolean' ? '' : ` "${Array.isArray(value) ? value[i.path[1] as number] ?? value.join(',') : String(value)}"`;
        return `${flagOf[field] ?? flagName(field)}${shown}: ${wanted(i)}`;
      })
      .join('\n'),
  );
}

/**
 * A single-value flag given twice is refused rather than silently taking the last value. Repeatable
 * flags are the ones whose help says "repeatable" (so --help and the behaviour cannot disagree);
 * boolean and variadic flags are left alone. Installed once on the whole program (cli/program.ts).
 */
export function rejectRepeatedFlags(cmd: Command): void {
  const seen = new Map<string, string>();
  for (const option of cmd.options) {
    const takesValue = option.required || option.optional;
    if (!takesValue || option.variadic || /repeatable/i.test(option.description)) continue;
    cmd.on(`option:${option.name()}`, (value: string | undefined) => {
      const shown = value ?? '';
      const before = seen.get(option.name());
      if (before !== undefined) throw new BadInputError(`${option.long ?? option.flags} given twice (${before}, ${shown}): give it once`);
      seen.set(option.name(), shown);
    });
  }
  for (const sub of cmd.commands) rejectRepeatedFlags(sub);
}
