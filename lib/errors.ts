// Errors that carry what the user must do. The CLI maps BadInputError to exit code 2; activities
// rethrow them as non-retryable ApplicationFailures of the same type name (see temporal-config/timeouts.ts).
import type { ZodError } from 'zod';

export class BadInputError extends Error {
  override name = 'BadInputError';
  constructor(message: string, readonly file?: string, readonly fieldPath?: string) {
    super(message);
  }
}

/** One line per zod issue: `<file>: <field.path>: <what was expected>`. */
export function describeZodError(err: ZodError, file: string): string {
  return err.issues
    .map((i) => {
      const field = i.path.length ? i.path.map(String).join('.') : '(root)';
      return `${file}: ${field}: ${i.message}`;
    })
    .join('\n');
}

export function badInputFromZod(err: ZodError, file: string): BadInputError {
  const first = err.issues[0];
  return new BadInputError(describeZodError(err, file), file, first ? first.path.map(String).join('.') : undefined);
}

/**
 * The toolchain a run needs could not be confirmed because its check timed out on a busy host: not
 * bad input (the task and the toolchain may be fine), so the prepare activity turns it into a
 * retryable failure (TOOLCHAIN_BUSY_FAILURE, activities/pipeline/index.ts) and checks again later.
 */
export class ToolchainCheckTimedOutError extends Error {
  override name = 'ToolchainCheckTimedOutError';
  constructor(message: string, readonly profile: string, readonly file?: string) {
    super(message);
  }
}
