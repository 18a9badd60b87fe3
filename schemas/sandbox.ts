// What a sandbox run asks for and what it reports. Payload-sized on purpose: files travel as
// artifact references, output as short tails plus references to the full (head+tail) logs.
import { z } from 'zod';
import { ArtifactRef } from './artifact.js';

export const SandboxLanguage = z.enum(['python', 'julia', 'orca']);
export type SandboxLanguage = z.infer<typeof SandboxLanguage>;

/** The entry file's extension per language; a mismatch is almost always a mixed-up request. */
export const LANGUAGE_EXTENSIONS: Record<SandboxLanguage, readonly string[]> = {
  python: ['.py'],
  julia: ['.jl'],
  orca: ['.inp'],
};

/** The sandbox keeps its own caches and scratch space here; scripts may not ship files into it. */
export const SANDBOX_PRIVATE_DIR = '.sandbox';

/** A path inside the work directory: relative, forward slashes, no `..`, nothing hidden under .sandbox. */
export const WorkPath = z
  .string()
  .min(1, 'a relative file name such as "main.py"')
  .max(512)
  .superRefine((p, ctx) => {
    const problem = workPathProblem(p);
    if (problem) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(p)} ${problem}` });
  });

function workPathProblem(p: string): string | null {
  if (p.includes('\0')) return 'contains a NUL byte';
  if (p.includes('\\')) return 'uses a backslash; use forward slashes';
  if (p.startsWith('/')) return 'is absolute; give a path relative to the work directory';
  const parts = p.split('/');
  if (parts.some((s) => s === '' || s === '.')) return 'has an empty or "." segment';
  if (parts.includes('..')) return 'climbs out with ".."; give a path inside the work directory';
  if (parts[0] === SANDBOX_PRIVATE_DIR) return `is inside ${SANDBOX_PRIVATE_DIR}/, which the sandbox reserves`;
  if (parts.some((s) => Buffer.byteLength(s) > 255)) return 'has a segment longer than 255 bytes';
  return null;
}

export const SandboxFile = z
  .object({
    path: WorkPath,
    ref: ArtifactRef.optional(),
    content: z.string().optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    if ((f.ref === undefined) === (f.content === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give exactly one of "ref" (an artifact reference) or "content" (the text)' });
    }
  });
export type SandboxFile = z.infer<typeof SandboxFile>;

/** Names a script may receive from the request; everything else is refused rather than silently dropped. */
export const REQUEST_ENV_NAME = /^(PHYSVEC_[A-Z0-9_]+|OMP_[A-Z0-9_]+|MKL_[A-Z0-9_]+|OPENBLAS_[A-Z0-9_]+|XLA_FLAGS|JAX_[A-Z0-9_]+|NUMBA_[A-Z0-9_]+|JULIA_NUM_THREADS|JULIA_CPU_THREADS|PYTHONHASHSEED|PYTHONWARNINGS|MPLBACKEND|TF_CPP_MIN_LOG_LEVEL|LANG|LC_ALL|TZ)$/;
/** Never passed to a script, whatever list it is on. */
export const SECRET_ENV_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

const SandboxEnv = z.record(z.string(), z.string().max(4096)).superRefine((env, ctx) => {
  for (const [name, value] of Object.entries(env)) {
    if (SECRET_ENV_NAME.test(name)) {
      ctx.addIssue({ code: 'custom', path: [name], message: `${name} looks like a secret; secrets never enter the sandbox` });
    } else if (!REQUEST_ENV_NAME.test(name)) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `${name} is not on the sandbox allow-list (PHYSVEC_*, OMP_*, MKL_*, OPENBLAS_*, XLA_FLAGS, JAX_*, NUMBA_*, JULIA_NUM_THREADS, PYTHONHASHSEED, MPLBACKEND, LANG, LC_ALL, TZ)`,
      });
    } else if (value.includes('\0')) {
      ctx.addIssue({ code: 'custom', path: [name], message: 'contains a NUL byte' });
    }
  }
});

export const SandboxRequest = z
  .object({
    language: SandboxLanguage,
    /** The file the interpreter runs (python/julia) or the input ORCA reads; must be one of `files`. */
    entry: WorkPath,
    files: z.array(SandboxFile).min(1).max(500),
    args: z.array(z.string().max(4096).refine((a) => !a.includes('\0'), 'contains a NUL byte')).max(64).default([]),
    /**
     * The run's time limit, on its own CPU time: all its processes and threads together (ms). Past it the
     * run is killed (`killedReason: 'timeout'`); a busy host slows a run down without using it up.
     */
    timeoutMs: z.number().int().min(100).max(24 * 3600_000).default(300_000),
    /**
     * Wall-clock guard (ms; default: max(3 × timeoutMs, timeoutMs + 30 min), see runners/sandbox/limits.ts).
     * Its expiry is an infrastructure fault — the host did not give the run its time — not a result.
     */
    wallGuardMs: z.number().int().min(100).max(72 * 3600_000).optional(),
    /**
     * The run's memory as a whole — all its processes, shared, tmpfs and file-backed pages included — where
     * the host has a memory cgroup (past it the run is killed, `killedReason: 'memory'`); each process's data
     * (heap + private writable mappings) is capped at the same figure as a second line: see runners/sandbox/limits.ts.
     */
    memoryMb: z.number().int().min(64).max(1024 * 1024).default(3072),
    /** Disk the run's work dir may take as a whole (past it the run is killed, `killedReason: 'disk'`); no single file may exceed it either. */
    diskMb: z.number().int().min(16).max(1024 * 1024).default(4096),
    /**
     * Files, directories and other entries the work dir may hold at once (past it the run is killed,
     * `killedReason: 'files'`): millions of empty files take no disk to speak of, yet cost the worker
     * minutes to collect and remove after the run.
     */
    maxFiles: z.number().int().min(100).max(10_000_000).default(100_000),
    cpuSeconds: z.number().int().min(1).optional(),
    /** Processes and threads of the run together (its cgroup, and its uid as a second line). */
    maxProcesses: z.number().int().min(4).max(65536).default(256),
    /** Kept per stream (head and tail halves); the rest is counted, not stored. */
    maxOutputBytes: z.number().int().min(1024).max(256 * 1024 * 1024).default(2 * 1024 * 1024),
    label: z.string().max(200).optional(),
    env: SandboxEnv.default({}),
    /** Which produced files to store (globs over work-dir paths, `*`, `**`, `?`); default: every new file ≤ 20 MB. */
    collectGlobs: z.array(z.string().min(1).max(200)).max(50).optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    const paths = r.files.map((f) => f.path);
    const dup = paths.find((p, i) => paths.indexOf(p) !== i);
    if (dup) ctx.addIssue({ code: 'custom', path: ['files'], message: `"${dup}" is given twice` });
    if (!paths.includes(r.entry)) {
      ctx.addIssue({ code: 'custom', path: ['entry'], message: `"${r.entry}" is not among files[].path (${paths.slice(0, 5).join(', ')})` });
    }
    const exts = LANGUAGE_EXTENSIONS[r.language];
    if (!exts.some((e) => r.entry.endsWith(e))) {
      ctx.addIssue({ code: 'custom', path: ['entry'], message: `a ${r.language} entry ends with ${exts.join(' or ')}; got "${r.entry}"` });
    }
  });
/** A validated request, defaults filled in. */
export type SandboxRequest = z.infer<typeof SandboxRequest>;
/** What callers write (defaults optional). */
export type SandboxRequestInput = z.input<typeof SandboxRequest>;

/** Protections that can be missing on a host; the report names them so a reader knows what a run was exposed to. */
export const Protection = z.enum([
  'network',
  'readonly-root',
  'private-tmp',
  'pid-namespace',
  'unprivileged-user',
  'resource-limits',
  /** One memory limit for all of the run's processes (a cgroup), shared memory included. */
  'run-memory-limit',
  /** One process limit for the whole run (a cgroup), whatever uid its processes have. */
  'run-process-limit',
  /** The work dir's total size and entry count are watched and the run killed past their caps. */
  'disk-limit',
  /** unshare/clone with CLONE_NEWUSER and setns fail inside the sandbox (a seccomp filter). */
  'no-user-namespaces',
]);
export type Protection = z.infer<typeof Protection>;

export const IsolationReport = z.object({
  /** bwrap: namespaces + read-only root; processes-only: no namespaces; none: isolation switched off. */
  mode: z.enum(['bwrap', 'processes-only', 'none']),
  missing: z.array(Protection),
  /** The protections this run had (every Protection not in `missing`). */
  inForce: z.array(Protection),
  note: z.string(),
  /** The uid the script ran as (null: the worker's own). */
  uid: z.number().int().nullable(),
});
export type IsolationReport = z.infer<typeof IsolationReport>;

export const CapturedStream = z.object({
  /** Head and tail of the stream (all of it when not truncated). */
  ref: ArtifactRef,
  totalBytes: z.number().int().nonnegative(),
  truncated: z.boolean(),
});
export type CapturedStream = z.infer<typeof CapturedStream>;

export const ProducedFile = z.object({ path: z.string(), ref: ArtifactRef });
export type ProducedFile = z.infer<typeof ProducedFile>;

export const SkippedFile = z.object({
  path: z.string(),
  bytes: z.number().int().nonnegative(),
  reason: z.enum(['too-large', 'too-many', 'not-a-regular-file', 'linked', 'unreadable']),
});
export type SkippedFile = z.infer<typeof SkippedFile>;

/** Why the sandbox killed the run: memory, disk and files are the run-wide limits (see `usage` for the peaks). */
/**
 * `timeout`: past its CPU-time limit; `idle`: it left as much CPU as its limit unused on a host that
 * offered it (blocked or sleeping, see runners/sandbox/cpu-time.ts). Results recorded before CPU limits
 * existed used `timeout` for the wall clock.
 */
export const KilledReason = z.enum(['timeout', 'idle', 'cancelled', 'output-limit', 'memory', 'disk', 'files']).nullable();
export type KilledReason = z.infer<typeof KilledReason>;

export const SandboxResult = z.object({
  runId: z.string(),
  label: z.string().optional(),
  language: SandboxLanguage,
  /** Exit status of the script (for signal deaths inside bwrap: 128 + signal number). Null when killed by us. */
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  killedReason: KilledReason,
  /** exitCode 0 and not killed. */
  ok: z.boolean(),
  durationMs: z.number().nonnegative(),
  stdoutTail: z.string(),
  stderrTail: z.string(),
  stdout: CapturedStream,
  stderr: CapturedStream,
  files: z.array(ProducedFile),
  skippedFiles: z.array(SkippedFile),
  isolation: IsolationReport,
  /**
   * How the interpreter started: 'warm' forked from the worker's pre-imported python inside the
   * same isolation chain, 'cold' a fresh interpreter (reason: why not warm). Absent in results
   * recorded before warm starts existed.
   */
  start: z
    .object({
      path: z.enum(['warm', 'cold']),
      reason: z.string().nullable(),
      /** A warm run's chain: started and armed before the run arrived, or by the run itself. */
      chain: z.enum(['pre-started', 'per-run']).optional(),
    })
    .optional(),
  /** argv as run (environment values are not part of it), for the audit report. */
  command: z.array(z.string()),
  /** Environment variable names the script saw (values omitted). */
  envNames: z.array(z.string()),
  limits: z.object({
    /** CPU-time limit (ms; the wall clock in results recorded before CPU limits existed). */
    timeoutMs: z.number(),
    /** The wall-clock guard (absent in results recorded before it existed). */
    wallGuardMs: z.number().optional(),
    memoryMb: z.number(),
    cpuSeconds: z.number().nullable(),
    maxProcesses: z.number(),
    diskMb: z.number(),
    /** Absent in results recorded before the cap existed. */
    maxFiles: z.number().optional(),
  }),
  /** What the run used at its peak; null where the host cannot measure it (no memory cgroup, no du). */
  usage: z.object({
    memoryPeakBytes: z.number().nullable(),
    diskPeakBytes: z.number().nullable(),
    /** Entries in the work dir at the last count (null: not counted); a count past the cap stops at cap + 1. */
    filesPeak: z.number().nullable().optional(),
    /** The run's own CPU time (ms), all its processes together (absent in older results). */
    cpuMs: z.number().nullable().optional(),
    /** The host's 1-minute load average when the run was killed, else when it ended (absent in older results). */
    load1: z.number().nullable().optional(),
  }),
  /**
   * Why the script's checkpoint dir was not snapshotted (too many files, too large): set by the
   * activity, so a report can tell the reader that a retry would start from scratch.
   */
  checkpointSkipped: z.string().optional(),
  /** Present only when PHYSVEC_KEEP_SANDBOX=1 kept the work directory. */
  workDir: z.string().optional(),
});
export type SandboxResult = z.infer<typeof SandboxResult>;

/** Where a run is: setting up, its script running, storing its output and files, removing what it held. */
export const SandboxPhase = z.enum(['preparing', 'running', 'collecting', 'cleaning']);
export type SandboxPhase = z.infer<typeof SandboxPhase>;

export const SandboxHeartbeat = z.object({
  runId: z.string(),
  phase: SandboxPhase,
  elapsedMs: z.number(),
  stdoutBytes: z.number(),
  stderrBytes: z.number(),
});
export type SandboxHeartbeat = z.infer<typeof SandboxHeartbeat>;
