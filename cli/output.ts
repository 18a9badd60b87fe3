// Shared CLI output conventions: --json prints exactly one JSON document on stdout; humans get text.
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function line(text = ''): void {
  process.stdout.write(text + '\n');
}

/** Exit codes (DESIGN §9): 0 success, 1 the work failed, 2 bad usage or bad input. */
export const EXIT = { ok: 0, failed: 1, badInput: 2 } as const;
