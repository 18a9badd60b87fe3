// Run one pipeline script in the sandbox and digest what it printed (its result lines), keeping the job's purpose.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { RunDigest, ScriptJob } from '../../schemas/pipeline.js';
import type { SandboxResult } from '../../schemas/sandbox.js';
import { describePurpose, type JobPurpose } from '../../schemas/job-purpose.js';
import { jobTimeoutMs } from './job-limits.js';
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import { resultLines } from '../../schemas/script-markers.js';

/** Kept for callers of the digest: the result lines come from schemas/script-markers.ts. */
export { resultLines };

type KilledRun = Pick<SandboxResult, 'timedOut' | 'killedReason'> & Partial<Pick<SandboxResult, 'durationMs' | 'limits' | 'usage'>>;

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * Why the sandbox killed a run, in words a report shows next to its output, with the limit and what
 * the run had used ("full script run exceeded its 300 s CPU limit after 312 s CPU, 640 s wall at
 * load 41"); undefined when it ended by itself. Results recorded before CPU limits keep the old words.
 */
export function killedDescription(r: KilledRun, timeoutMs?: number, subject = 'the run'): string | undefined {
  const u = r.usage;
  const limitMs = r.limits?.timeoutMs ?? timeoutMs;
  const atLoad = u?.load1 != null ? ` at load ${u.load1}` : '';
  if ((r.timedOut || r.killedReason === 'timeout' || r.killedReason === 'idle') && u?.cpuMs != null && limitMs) {
    const used = `${seconds(u.cpuMs)} CPU, ${seconds(r.durationMs ?? 0)} wall${atLoad}`;
    if (r.killedReason === 'idle') return `${subject} was stopped as stalled: it left ${seconds(limitMs)} of CPU (its limit) unused on a host that offered it (blocked or sleeping), after ${used}`;
    return `${subject} exceeded its ${seconds(limitMs)} CPU limit after ${used}`;
  }
  const limit = limitMs ? ` (limit ${seconds(limitMs)})` : '';
  if (r.timedOut || r.killedReason === 'timeout') return `timed out${limit}`;
  const mb = (bytes: number | null | undefined) => (bytes ? `, peak ${Math.round(bytes / 2 ** 20)} MB` : '');
  switch (r.killedReason) {
    case 'memory': return `killed: out of memory (the run's memory limit${r.limits ? ` of ${r.limits.memoryMb} MB` : ''}${mb(u?.memoryPeakBytes)})`;
    case 'disk': return `killed: the run's disk limit${r.limits ? ` of ${r.limits.diskMb} MB` : ''} was reached`;
    case 'files': return `killed: it created more files and directories than the run's file limit${r.limits?.maxFiles ? ` of ${r.limits.maxFiles}` : ''}`;
    case 'output-limit': return 'killed: it printed more than the output limit';
    case 'cancelled': return 'killed: cancelled';
    default: return undefined;
  }
}

export function digestRun(id: string, r: SandboxResult, purpose?: JobPurpose, timeoutMs?: number): RunDigest {
  const killed = killedDescription(r, timeoutMs, purpose ? describePurpose(purpose) : undefined);
  return {
    id,
    ...(purpose ? { purpose } : {}),
    ...(killed ? { killed } : {}),
    ...(r.checkpointSkipped ? { checkpointSkipped: r.checkpointSkipped } : {}),
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    stdoutTail: r.stdoutTail.slice(-6000),
    stderrTail: r.stderrTail.slice(-4000),
    results: resultLines(r.stdoutTail),
    files: r.files.map((f) => ({ path: f.path, ref: f.ref })),
    missingProtections: r.isolation?.missing ?? [],
  };
}

export type RunSandbox = (req: unknown) => Promise<SandboxResult>;

export async function runJob(
  _store: ArtifactStore,
  runSandbox: RunSandbox,
  input: { job: ScriptJob; language: ScriptLanguage; timeoutMs: number },
): Promise<RunDigest> {
  // input.timeoutMs is the script's CPU limit; each kind of job gets its own share of it.
  const timeoutMs = jobTimeoutMs(input.job.purpose, input.timeoutMs);
  const r = await runSandbox({
    language: input.language,
    entry: input.job.file,
    files: [{ path: input.job.file, ref: input.job.ref }],
    timeoutMs,
    env: input.job.env ?? {},
    label: input.job.id,
  });
  return digestRun(input.job.id, r, input.job.purpose, timeoutMs);
}
