// Sandbox jobs of one script language, all at once, on the simulation queue.
import type { RunDigest, ScriptJob } from '../../schemas/pipeline.js';
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import { sim } from './activities.js';

/** Runs sandbox jobs (all at once) and returns their digests in the same order. */
export type RunJobs = (jobs: ScriptJob[]) => Promise<RunDigest[]>;

export function runJobs(language: ScriptLanguage, timeoutMs: number): RunJobs {
  return (jobs) => Promise.all(jobs.map((job) => sim.runJob({ job, language, timeoutMs })));
}
