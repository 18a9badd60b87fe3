// Run one pipeline script in the sandbox and digest what it printed (PHYSVEC_RESULT lines).
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { RunDigest, ScriptJob } from '../../schemas/pipeline.js';
import type { SandboxResult } from '../../schemas/sandbox.js';

export function resultLines(stdout: string): unknown[] {
  const out: unknown[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^PHYSVEC_RESULT\s+(.*)$/.exec(line.trim());
    if (!m) continue;
    try {
      out.push(JSON.parse(m[1]!));
    } catch {
      out.push(m[1]);
    }
  }
  return out;
}

export function digestRun(id: string, r: SandboxResult): RunDigest {
  return {
    id,
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
  input: { job: ScriptJob; language: 'python' | 'julia'; timeoutMs: number },
): Promise<RunDigest> {
  const r = await runSandbox({
    language: input.language,
    entry: input.job.file,
    files: [{ path: input.job.file, ref: input.job.ref }],
    timeoutMs: input.timeoutMs,
    env: input.job.env ?? {},
    label: input.job.id,
  });
  return digestRun(input.job.id, r);
}
