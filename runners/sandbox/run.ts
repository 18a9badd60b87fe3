// Run one untrusted script: join the run's cgroup (memory and processes of the whole run) →
// prlimit (per-process caps) → bwrap (namespaces, read-only root, seccomp: no user namespaces) →
// setpriv (a run-specific unprivileged uid, locked for the run) → the interpreter (launch.ts). A
// python run with the whole chain starts warm: the chain ends in a holder and the worker's
// pre-imported python forks the run into the holder's namespaces with the same caps (warm.ts,
// zygote.py); in a worker that chain is usually started and armed before the run arrives
// (prestart.ts). Which of these a run takes is decided once (start-path.ts), from what the run holds
// (run-hold.ts); if a warm start is impossible the run starts cold and `result.start` says why. A
// watchdog kills the run on an OOM kill in its cgroup or past its disk or file cap; the run
// heartbeats until everything it held is released (run-heartbeat.ts). Whatever the host lacks
// is run without and reported in `result.isolation`; the wall-clock timeout, the environment
// allow-list and bounded output capture always apply. Cleanup never throws past the result. A run
// that failed because the host's disk is full is no result at all: HostDiskFullError (host-disk.ts).
import os, { constants as osConstants } from 'node:os';
import { ArtifactStore, artifactStore } from '../../lib/artifacts/store.js';
import { badInputFromZod } from '../../lib/errors.js';
import {
  SandboxRequest,
  type CapturedStream,
  type KilledReason,
  type SandboxHeartbeat,
  type SandboxRequestInput,
  type SandboxResult,
} from '../../schemas/sandbox.js';
import { runnerFor } from '../languages/index.js';
import type { ResolvedRunner } from '../languages/profile.js';
import { retryLeftCgroups, sweepStaleCgroupsOnce } from './cgroup.js';
import { spawnChain, type ChainProcess } from './chain.js';
import { ChainLostError } from './launcher.js';
import { collectProducedFiles } from './collect.js';
import { RunCpuMeter } from './cpu-time.js';
import { buildLaunch, type Launch } from './launch.js';
import { hostDiskFor, type HostDisk } from './host-disk.js';
import { HeadTailCapture } from './output-capture.js';
import { wallGuardMs } from './limits.js';
import { isolationModeFromEnv, planIsolation, protectionsInForce, type IsolationMode } from './plan.js';
import { probeIsolation, type IsolationProbe } from './probe.js';
import { PhaseClock, type Phases } from './phase-clock.js';
import { prestart } from './prestart.js';
import { killRun } from './process-tree.js';
import { INTERRUPT_GRACE_MS, interruptScript } from './interrupt.js';
import { capInRunCgroup, giveToRunUid, holdRun, releaseHold, type RunHold } from './run-hold.js';
import { activeRuns } from './run-resources.js';
import { chooseStart, coldAfterFailedWarm, profileOf, reportedStart, takePrestartedFor, traceStart, zygoteOf, type StartPath } from './start-path.js';
import { handOverToWarmRun } from './warm-run.js';
import { RunHeartbeat } from './run-heartbeat.js';
import { RunWatchdog } from './watchdog.js';
import { keepWorkDirs, sweepStaleWorkDirsOnce, writeInputs } from './workdir.js';

export { newRunId } from './run-resources.js';

export interface RunSandboxOptions {
  signal?: AbortSignal;
  onHeartbeat?: (info: SandboxHeartbeat) => void;
  store?: ArtifactStore;
  /** 'none' switches isolation off (tests, debugging); default from PHYSVEC_SANDBOX_ISOLATION, else 'auto'. */
  isolation?: IsolationMode;
  /** What the host offers; tests pass a reduced probe to exercise the fallbacks. Default: probed once per process. */
  probe?: IsolationProbe;
  heartbeatMs?: number;
  /** Past this many bytes on stdout+stderr together the run is killed (the captured part is kept). */
  killAfterOutputBytes?: number;
  /** After the inputs are written, before the script starts (and before the dir goes to the run's uid): e.g. restore a checkpoint. */
  beforeStart?: (dirs: { workDir: string; privateDir: string }) => Promise<void>;
  /** Where the run's wall time went, phase by phase (called once, after clean-up). */
  onPhases?: (phases: Phases) => void;
  /**
   * Judges whether a failed run was the host's full disk (then HostDiskFullError is thrown instead of
   * a result); the caller passes its own to share worker-side write errors and a free-space probe.
   * Default: the sandbox root's and the store's file systems, by statfs.
   */
  hostDisk?: HostDisk;
}

export class SandboxCancelledError extends Error {
  override name = 'SandboxCancelledError';
  constructor(readonly result: SandboxResult, readonly reason: unknown) {
    super(`sandbox run ${result.runId} was cancelled after ${Math.round(result.durationMs)} ms and its processes were killed`);
  }
}

/**
 * The run's wall-clock guard expired: the host did not let it finish within a generous multiple of
 * its CPU limit (limits.ts). An infrastructure fault, never the script's: the activity retries it
 * and no verdict sees it.
 */
export class SandboxWallGuardError extends Error {
  override name = 'SandboxWallGuardError';
  constructor(readonly result: SandboxResult) {
    const u = result.usage;
    super(`sandbox run ${result.label ?? result.runId} was stopped by its wall-clock guard after ${Math.round(result.durationMs / 1000)} s wall with ${Math.round((u.cpuMs ?? 0) / 1000)} s of its ${Math.round(result.limits.timeoutMs / 1000)} s CPU limit used, at load ${u.load1 ?? '?'}: the host did not give it the time, not the script's fault; it is retried`);
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;

const TAIL_BYTES = 6 * 1024;
const RESULT_BUDGET_BYTES = 15 * 1024;
const MIN_TAIL_CHARS = 512;
const DEFAULT_HEARTBEAT_MS = 5_000;
const DEFAULT_KILL_AFTER_OUTPUT = 1024 * 1024 * 1024;
/** After the main process exits, how long stray holders of its pipes get before we stop reading. */
const PIPE_GRACE_MS = 2_000;
const MiB = 1024 * 1024;
export function parseSandboxRequest(input: unknown): SandboxRequest {
  const parsed = SandboxRequest.safeParse(input);
  if (!parsed.success) throw badInputFromZod(parsed.error, 'sandbox request');
  return parsed.data;
}

function signalFromBwrapExit(code: number | null): string | null {
  if (code === null || code <= 128 || code > 128 + 64) return null;
  const n = code - 128;
  return Object.entries(osConstants.signals).find(([, v]) => v === n)?.[0] ?? null;
}

export async function runSandboxed(input: SandboxRequestInput, opts: RunSandboxOptions = {}): Promise<SandboxResult> {
  const clock = new PhaseClock();
  const req = parseSandboxRequest(input);
  const store = opts.store ?? artifactStore();
  opts.signal?.throwIfAborted();
  const runner = await runnerFor(req.language);
  const probe = opts.probe ?? (await probeIsolation());
  const planned = planIsolation(probe, opts.isolation ?? isolationModeFromEnv());

  sweepStaleWorkDirsOnce();
  if (planned.cgroup) {
    sweepStaleCgroupsOnce(planned.cgroup, activeRuns);
    retryLeftCgroups();
  }
  const taken = await takePrestartedFor(req, runner, planned, store);
  clock.mark(taken ? 'request, probe, sweeps, take the pre-started chain' : 'request, probe, sweeps');
  const hostDisk = opts.hostDisk ?? hostDiskFor(store);
  let hold: RunHold;
  try {
    hold = await holdRun(taken, runner, planned);
  } catch (err) {
    throw await hostDisk.explain(err);
  }
  const heartbeat = new RunHeartbeat(hold.runId, opts.onHeartbeat, opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  let start: StartPath | null = null;
  try {
    await writeInputs(hold.workDir, req.files, store);
    await opts.beforeStart?.({ workDir: hold.workDir, privateDir: hold.privateDir });
    clock.mark('work dir, inputs, font list');
    await giveToRunUid(hold, runner);
    clock.mark('uid lease, chown');
    capInRunCgroup(hold, req);
    clock.mark('run cgroup');
    start = await chooseStart(req, runner, hold);
    let launch = launchFor(req, runner, hold, start);
    clock.mark('launch plan');
    let outcome = await execute(launch, req, hold, start, opts, clock, heartbeat);
    if (outcome.warmFailed !== null) {
      // Nothing of the script ran: the same run again, cold.
      start = coldAfterFailedWarm(start, outcome.warmFailed);
      launch = launchFor(req, runner, hold, start);
      outcome = await execute(launch, req, hold, start, opts, clock, heartbeat);
    }
    const result = await resultOf(req, hold, start, launch, outcome, store, clock);
    traceStart(start);
    if (outcome.killedReason === 'cancelled') throw new SandboxCancelledError(result, opts.signal?.reason);
    if (outcome.killedReason === 'wall-guard') throw new SandboxWallGuardError(result);
    // Judged before the work dir goes: what the run wrote still takes its space.
    const hostFull = await hostDisk.afterRun(result, hold.workDir);
    if (hostFull) throw hostFull;
    return result;
  } catch (err) {
    // A worker-side write (inputs, checkpoint restore, logs, produced files) that found the disk full.
    throw await hostDisk.explain(err, hold.workDir);
  } finally {
    heartbeat.enter('cleaning');
    clock.mark('result to clean-up');
    await releaseHold(hold, (phase) => clock.mark(phase));
    heartbeat.stop();
    opts.onPhases?.(clock.phases);
    const profile = start ? profileOf(start) : (taken?.profile ?? null);
    if (profile) prestart(profile, req);
  }
}

function launchFor(req: SandboxRequest, runner: ResolvedRunner, hold: RunHold, start: StartPath): Launch {
  return buildLaunch(req, runner, hold.plan, hold.lease?.uid ?? null, hold.workDir, hold.privateDir, hold.cgroup, zygoteOf(start));
}

async function resultOf(req: SandboxRequest, hold: RunHold, start: StartPath, launch: Launch, outcome: Outcome, store: ArtifactStore, clock: PhaseClock): Promise<SandboxResult> {
  const { runId, workDir, plan } = hold;
  const [stdout, stderr] = await Promise.all([
    storeStream(store, outcome.stdout, `${runId}.stdout.txt`),
    storeStream(store, outcome.stderr, `${runId}.stderr.txt`),
  ]);
  const cancelled = outcome.killedReason === 'cancelled';
  // The wall-clock guard is no result of the script's: runSandboxed throws before it gets here.
  const killedReason = outcome.killedReason === 'wall-guard' ? null : outcome.killedReason;
  clock.mark('store stdout/stderr');
  const collected = cancelled
    ? { files: [], skipped: [] }
    : await collectProducedFiles(workDir, store, { inputs: new Set(req.files.map((f) => f.path)), globs: req.collectGlobs });
  clock.mark('collect files');
  const signal = outcome.signal ?? (plan.bwrap ? signalFromBwrapExit(outcome.exitCode) : null);
  const result: SandboxResult = {
    runId,
    ...(req.label ? { label: req.label } : {}),
    language: req.language,
    exitCode: outcome.exitCode,
    signal,
    timedOut: killedReason === 'timeout' || killedReason === 'idle',
    killedReason,
    ok: outcome.exitCode === 0 && killedReason === null,
    durationMs: outcome.durationMs,
    stdoutTail: outcome.stdout.tailText(TAIL_BYTES),
    stderrTail: outcome.stderr.tailText(TAIL_BYTES),
    stdout,
    stderr,
    files: collected.files,
    skippedFiles: collected.skipped,
    isolation: { mode: plan.mode, missing: plan.missing, inForce: protectionsInForce(plan.missing), note: plan.note, uid: launch.uid },
    start: reportedStart(start),
    // A chain started ahead of its run is reported as the run would have started it (with the script's argv after the holder).
    command: launch.argv,
    envNames: Object.keys(launch.env).sort(),
    limits: { timeoutMs: req.timeoutMs, wallGuardMs: wallGuardMs(req), memoryMb: req.memoryMb, cpuSeconds: req.cpuSeconds ?? null, maxProcesses: req.maxProcesses, diskMb: req.diskMb, maxFiles: req.maxFiles },
    usage: { memoryPeakBytes: outcome.memoryPeakBytes, diskPeakBytes: outcome.diskPeakBytes, filesPeak: outcome.filesPeak, cpuMs: outcome.cpuMs, load1: round1(outcome.load1) },
    ...(keepWorkDirs() ? { workDir } : {}),
  };
  fitResultToPayload(result);
  return result;
}

/** Results travel in workflow histories: shorten the tails (the full logs are in the store) until the JSON fits. */
export function fitResultToPayload(result: SandboxResult, maxBytes = RESULT_BUDGET_BYTES): void {
  const size = () => Buffer.byteLength(JSON.stringify(result));
  for (const key of ['stdoutTail', 'stderrTail'] as const) {
    while (size() > maxBytes && result[key].length > MIN_TAIL_CHARS) result[key] = result[key].slice(Math.floor(result[key].length / 2));
  }
}

async function storeStream(store: ArtifactStore, capture: HeadTailCapture, name: string): Promise<CapturedStream> {
  const ref = await store.put(capture.content(), { name, mediaType: 'text/plain' });
  return { ref, totalBytes: capture.totalBytes, truncated: capture.truncated };
}

/** Why the sandbox ended a run: a reason the result reports, or the wall-clock guard (no result: SandboxWallGuardError). */
type KillCause = Exclude<KilledReason, null> | 'wall-guard';

interface Outcome {
  memoryPeakBytes: number | null;
  /** The run's own CPU time (ms), and the host's 1-minute load at its kill (else at its end). */
  cpuMs: number;
  load1: number;
  diskPeakBytes: number | null;
  filesPeak: number | null;
  exitCode: number | null;
  signal: string | null;
  killedReason: KillCause | null;
  durationMs: number;
  stdout: HeadTailCapture;
  stderr: HeadTailCapture;
  /** The warm start could not make the run process (nothing of the script ran), and why. */
  warmFailed: string | null;
}

async function execute(launch: Launch, req: SandboxRequest, hold: RunHold, start: StartPath, opts: RunSandboxOptions, clock: PhaseClock, heartbeat: RunHeartbeat): Promise<Outcome> {
  const { runId, workDir } = hold;
  const stdout = new HeadTailCapture(req.maxOutputBytes);
  const stderr = new HeadTailCapture(req.maxOutputBytes);
  const killAfter = opts.killAfterOutputBytes ?? DEFAULT_KILL_AFTER_OUTPUT;
  const started = performance.now();
  const chain: ChainProcess = start.path === 'pre-started' ? start.pre.chain : await spawnChain(launch, workDir);
  const child = chain.child;
  let killedReason: KillCause | null = null;
  let loadAtKill: number | null = null;
  let killing: Promise<void> | undefined;
  let exited = false;
  let interrupted: NodeJS.Timeout | null = null;
  const hardKill = () => {
    if (child.pid !== undefined && !exited) killing ??= killRun(child.pid, launch.uid, launch.cgroup);
  };
  const kill = (reason: KillCause) => {
    if (killedReason === null) {
      killedReason = reason;
      loadAtKill = os.loadavg()[0]!;
      // Stopped for time: the script first gets to print where it was (interrupt.ts).
      if ((reason === 'timeout' || reason === 'idle') && child.pid !== undefined && !exited && interruptScript(child.pid, launch.cgroup) > 0) {
        interrupted = setTimeout(hardKill, INTERRUPT_GRACE_MS);
        return;
      }
    }
    // Repeated breaches while an interrupted script prints its traceback wait for the grace to end.
    if (interrupted !== null && (reason === 'timeout' || reason === 'idle')) return;
    hardKill();
  };
  let warmFailed: string | null = null;
  if (start.path !== 'cold') {
    const abandon = (why: string) => {
      warmFailed ??= why;
      if (child.pid !== undefined && !exited) killing ??= killRun(child.pid, launch.uid, launch.cgroup);
    };
    handOverToWarmRun(start, { req, runId, workDir, launch, chain, stderr, abandon, clock });
  }
  const cpu = new RunCpuMeter(launch.cgroup, () => child.pid);
  const watchdog = new RunWatchdog(
    { cgroup: launch.cgroup, du: launch.plan.du, workDir, diskBytes: req.diskMb * MiB, maxFiles: req.maxFiles, cpu, cpuLimitMs: req.timeoutMs },
    (breach) => kill(breach),
  );
  watchdog.start();

  child.stdout!.on('data', (c: Buffer) => {
    stdout.push(c);
    if (stdout.totalBytes + stderr.totalBytes > killAfter) kill('output-limit');
  });
  child.stderr!.on('data', (c: Buffer) => {
    stderr.push(c);
    if (stdout.totalBytes + stderr.totalBytes > killAfter) kill('output-limit');
  });

  // The time limit is on the run's CPU (the watchdog); the wall clock only guards against a run the host never lets finish.
  const timeout = setTimeout(() => kill('wall-guard'), wallGuardMs(req));
  heartbeat.countOutput(stdout, stderr);
  heartbeat.enter('running');
  const onAbort = () => kill('cancelled');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();

  try {
    const { code, signal } = await chain.exited;
    heartbeat.enter('collecting');
    const durationMs = performance.now() - started;
    clock.mark(start.path === 'cold' ? 'cold chain + script' : 'script, its exit, holder and bwrap exit');
    // Sweep stragglers (daemons, orphans) even after a normal exit; inside bwrap they are already gone with the PID namespace.
    const sweep = child.pid !== undefined ? (killing ?? killRun(child.pid, launch.uid, launch.cgroup)) : Promise.resolve();
    // A breach between the last tick and the exit still counts: the run went past its limit. Inside
    // bwrap nothing of the run is left to write, so the last check need not wait for the sweep.
    if (!launch.plan.bwrap) await sweep;
    await Promise.all([sweep, watchdog.stop()]);
    exited = true;
    cpu.sample();
    if (killedReason === null && watchdog.memoryBreached()) killedReason = 'memory';
    clock.mark('straggler sweep, last disk/memory check');
    await Promise.race([chain.closed, new Promise((r) => setTimeout(r, PIPE_GRACE_MS))]);
    clock.mark('pipes closed');
    child.stdout!.destroy();
    child.stderr!.destroy();
    return {
      exitCode: code,
      signal: killedReason ? (signal ?? 'SIGKILL') : signal,
      killedReason,
      durationMs,
      stdout,
      stderr,
      memoryPeakBytes: launch.cgroup?.memoryPeak() ?? null,
      cpuMs: Math.round(cpu.usedMs),
      load1: loadAtKill ?? os.loadavg()[0]!,
      diskPeakBytes: watchdog.diskPeakBytes,
      filesPeak: watchdog.filesPeak,
      warmFailed: killedReason === null ? warmFailed : null,
    };
  } catch (err) {
    if (child.pid !== undefined) await killRun(child.pid, launch.uid, launch.cgroup);
    // The launcher died with the run under way: not a start that failed, and no result (retried).
    if (err instanceof ChainLostError) throw new ChainLostError(`sandbox run ${runId}: ${err.message}; the run will be retried`, { cause: err });
    throw new Error(`could not start ${launch.argv[0]}: ${(err as Error).message}`);
  } finally {
    await watchdog.stop().catch(() => undefined);
    clearTimeout(timeout);
    if (interrupted) clearTimeout(interrupted);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

