// Sandbox jobs of one script language, all at once, on the simulation queue.
import type { RunDigest, ScriptJob } from '../../schemas/pipeline.js';
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import { sim, simLarge } from './activities.js';

/** Runs sandbox jobs (all at once) and returns their digests in the same order. */
export type RunJobs = (jobs: ScriptJob[]) => Promise<RunDigest[]>;

/** `large`: on the large simulation queue (full-size runs). */
export function runJobs(language: ScriptLanguage, timeoutMs: number, queue: 'simulation' | 'large' = 'simulation'): RunJobs {
  const proxy = queue === 'large' ? simLarge : sim;
  return (jobs) => Promise.all(jobs.map((job) => proxy.runJob({ job, language, timeoutMs })));
}
