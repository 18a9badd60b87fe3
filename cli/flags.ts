// Command-line flags named the way the user typed them: commander hands options over in camelCase,
// and a zod issue on one of them must say `--stop-after-passes`, not `stopAfterPasses`.
import type { ZodError } from 'zod';
import { BadInputError } from '../lib/errors.js';

/** `stopAfterPasses` → `--stop-after-passes`. */
export function flagName(option: string): string {
  return `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** One line per issue, `<flag>: <message>`; `flagOf` renames fields that no single flag sets. */
export function badFlags(error: ZodError, flagOf: Record<string, string> = {}): BadInputError {
  return new BadInputError(
    error.issues
      .map((i) => {
        const field = String(i.path[0] ?? '');
        return `${flagOf[field] ?? flagName(field)}: ${i.message}`;
      })
      .join('\n'),
  );
}
