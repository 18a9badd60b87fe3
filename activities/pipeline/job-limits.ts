// Each kind of sandbox job gets a CPU-time limit proportionate to what it runs, derived from the
// script's limit (`limits.runTimeoutMs`, `reproduce --run-timeout`, default 300 s):
// - a unit test runs one element function on inputs its entry point builds small: a tenth of the
//   script's limit, at least 10 s, so a unit test that never ends costs 30 s, not the whole 300 s;
// - an integration level, the full run, an assertion's variant main and a convergence variant each
//   run the script's main (a prefix of it, or the same pipeline at other parameters): the script's limit.
import type { JobPurpose } from '../../schemas/job-purpose.js';

/** A unit test's share of the script's CPU limit, and its floor (a cold interpreter's imports alone take seconds under load). */
const UNIT_LIMIT_SHARE = 0.1;
const UNIT_LIMIT_MIN_MS = 10_000;

/** The CPU-time limit (ms) of a job for `purpose`, given the script's limit. */
export function jobTimeoutMs(purpose: JobPurpose, scriptLimitMs: number): number {
  if (purpose.kind !== 'unit') return scriptLimitMs;
  return Math.min(scriptLimitMs, Math.max(UNIT_LIMIT_MIN_MS, Math.round(scriptLimitMs * UNIT_LIMIT_SHARE)));
}
