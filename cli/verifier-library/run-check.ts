// How the builder runs a check: a small interface, so tests and other hosts can pass their own, and
// the real implementation, which runs it in the sandbox (runners/sandbox) like any generated script.
import { runSandboxed, type RunSandboxOptions } from '../../runners/sandbox/index.js';
import type { VerifierLanguage } from '../../lib/verifier-library/index-schema.js';

export interface CheckFile {
  path: string;
  content: string;
}

export interface CheckRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

export type RunCheck = (files: CheckFile[], entry: string, timeoutMs: number) => Promise<CheckRun>;

/** One thread per numerical library: the machine is small and shared (runners/PROTOCOL.md, Limits). */
export const CHECK_ENV: Record<string, string> = {
  OMP_NUM_THREADS: '1',
  OPENBLAS_NUM_THREADS: '1',
  MKL_NUM_THREADS: '1',
  JAX_PLATFORMS: 'cpu',
  XLA_FLAGS: '--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1',
  JULIA_NUM_THREADS: '1',
  MPLBACKEND: 'Agg',
};

export function sandboxRunCheck(language: VerifierLanguage, opts: RunSandboxOptions = {}): RunCheck {
  return async (files, entry, timeoutMs) => {
    const r = await runSandboxed(
      { language, entry, files: files.map((f) => ({ path: f.path, content: f.content })), timeoutMs, env: CHECK_ENV, label: `verifier-check ${entry}` },
      opts,
    );
    return { exitCode: r.exitCode, stdout: r.stdoutTail, stderr: r.stderrTail, timedOut: r.timedOut, durationMs: r.durationMs };
  };
}
