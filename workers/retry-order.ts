// Which of a dead worker's interrupted attempts is retried first. A kill leaves a worker's runs all
// interrupted at once — in the programming stage a full script run beside unit harnesses and
// integration levels — and a restarted worker has fewer slots than that: at load 40 a restarted
// 3-slot worker took five retries in the order the watchdog happened to read their files, and the full
// run's came fifth (80.5 s from the kill to its restart, drill-load). The stage waits for all of
// them, so the one that takes longest should start first (longest-first keeps the stage's end
// earliest), and a run of the whole script (the full run, an assertion's or a convergence variant)
// takes far longer than a harness that calls one function. Among equals, the attempt interrupted
// more often goes first (it has waited longest), then the one that had run longest.
import { z } from 'zod';
import { JobPurpose } from '../schemas/job-purpose.js';

/** 2: a run of the whole script; 1: an integration level; 0: a unit harness. Absent: not known (other activities). */
export type RetryRank = 0 | 1 | 2;

const JobInput = z.object({ job: z.object({ purpose: JobPurpose }) });

/** The rank of an activity attempt from its input (runJob's job purpose); undefined when its input names none. */
export function retryRankOf(args: readonly unknown[]): RetryRank | undefined {
  const parsed = JobInput.safeParse(args[0]);
  if (!parsed.success) return undefined;
  switch (parsed.data.job.purpose.kind) {
    case 'unit': return 0;
    case 'level': return 1;
    default: return 2;
  }
}

interface Orderable {
  rank?: RetryRank;
  attempt: number;
  startedAt: number;
}

/** An unknown rank is ordered as a whole-script run: nothing says it is a short one. */
const rankOf = (a: Orderable) => a.rank ?? 2;

/** The order in which interrupted attempts are failed (and so queued): whole-script runs first, then the most interrupted, then the longest running. */
export function inRetryOrder<T extends Orderable>(attempts: readonly T[]): T[] {
  return [...attempts].sort((a, b) => rankOf(b) - rankOf(a) || b.attempt - a.attempt || a.startedAt - b.startedAt);
}
