// How the builder runs a check: a small interface, so tests and other hosts can pass their own, and
// the real implementation, which runs it in the sandbox (runners/sandbox) like any generated script.
import { runSandboxed, warmUpSandbox, type RunSandboxOptions } from '../../runners/sandbox/index.js';
import { WARM_PROFILES, type WarmProfile } from '../../runners/sandbox/zygote.js';
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

/**
 * One thread per numerical library (runners/PROTOCOL.md, Limits) is already the sandbox's default
 * for every run (runners/sandbox/env.ts); only what it leaves out is set here. A python check sets
 * nothing read at import time, so it can start warm like a generated script of its toolchain.
 */
export const CHECK_ENV: Record<string, string> = {
  JULIA_NUM_THREADS: '1',
};

export function sandboxRunCheck(language: VerifierLanguage, opts: RunSandboxOptions = {}, profile?: string): RunCheck {
  // The profile's warm python, importing its toolchain once for all of its checks (each run would wait
  // 2 s for it and then start cold, importing it again: ~5 s of CPU per NetKet check).
  const warm = language === 'python' && profile && profile in WARM_PROFILES ? warmUpSandbox(profile as WarmProfile) : null;
  return async (files, entry, timeoutMs) => {
    await warm;
    const r = await runSandboxed(
      { language, entry, files: files.map((f) => ({ path: f.path, content: f.content })), timeoutMs, env: CHECK_ENV, label: `verifier-check ${entry}` },
      opts,
    );
    return { exitCode: r.exitCode, stdout: r.stdoutTail, stderr: r.stderrTail, timedOut: r.timedOut, durationMs: r.durationMs };
  };
}
