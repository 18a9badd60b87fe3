// Run one pipeline script in the sandbox and digest what it printed (its result lines), keeping the job's purpose.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { RunDigest, ScriptJob } from '../../schemas/pipeline.js';
import type { SandboxResult } from '../../schemas/sandbox.js';
import type { JobPurpose } from '../../schemas/job-purpose.js';
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import { resultLines } from '../../schemas/script-markers.js';

/** Kept for callers of the digest: the result lines come from schemas/script-markers.ts. */
export { resultLines };

/** Why the sandbox killed a run, in words a report shows next to its output; undefined when it ended by itself. */
export function killedDescription(r: Pick<SandboxResult, 'timedOut' | 'killedReason'>, timeoutMs?: number): string | undefined {
  const limit = timeoutMs ? ` (limit ${Math.round(timeoutMs / 1000)} s)` : '';
  if (r.timedOut || r.killedReason === 'timeout') return `timed out${limit}`;
  switch (r.killedReason) {
    case 'memory': return 'killed: out of memory (the run\'s memory limit)';
    case 'disk': return 'killed: the run\'s disk limit was reached';
    case 'files': return 'killed: it created more files and directories than the run\'s file limit';
    case 'output-limit': return 'killed: it printed more than the output limit';
    case 'cancelled': return 'killed: cancelled';
    default: return undefined;
  }
}

export function digestRun(id: string, r: SandboxResult, purpose?: JobPurpose, timeoutMs?: number): RunDigest {
  const killed = killedDescription(r, timeoutMs);
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
  const r = await runSandbox({
    language: input.language,
    entry: input.job.file,
    files: [{ path: input.job.file, ref: input.job.ref }],
    timeoutMs: input.timeoutMs,
    env: input.job.env ?? {},
    label: input.job.id,
  });
  return digestRun(input.job.id, r, input.job.purpose, input.timeoutMs);
}
