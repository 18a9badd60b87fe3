// Run one untrusted script: join the run's cgroup (memory and processes of the whole run) →
// prlimit (per-process caps) → bwrap (namespaces, read-only root, seccomp: no user namespaces) →
// setpriv (a run-specific unprivileged uid, locked for the run) → the interpreter (launch.ts). A
// python run with the whole chain starts warm: the chain ends in a holder and the worker's
// pre-imported python forks the run into the holder's namespaces with the same caps (warm.ts,
// zygote.py); in a worker that chain is usually started and armed before the run arrives
// (prestart.ts). If a warm start is impossible the run starts cold and `result.start` says why. A
// watchdog kills the run on an OOM kill in its cgroup or past its disk cap. Whatever the host lacks
// is run without and reported in `result.isolation`; the wall-clock timeout, the environment
// allow-list and bounded output capture always apply. Cleanup never throws past the result.
import { execFile } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
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
import { retryLeftCgroups, RunCgroup, sweepStaleCgroupsOnce } from './cgroup.js';
import { spawnChain, type ChainProcess } from './chain.js';
import { collectProducedFiles } from './collect.js';
import { seedMatplotlibCache } from './font-cache.js';
import { buildLaunch, type Launch } from './launch.js';
import { warmRlimits } from './limits.js';
import { HeadTailCapture } from './output-capture.js';
import { isolationModeFromEnv, planIsolation, protectionsInForce, withoutPrivilegeDrop, withoutRunCgroup, type IsolationMode, type IsolationPlan } from './plan.js';
import { probeIsolation, type IsolationProbe } from './probe.js';
import { PhaseClock, type Phases } from './phase-clock.js';
import { prestart, prestartWanted, takePrestarted, type Prestarted } from './prestart.js';
import { killRun } from './process-tree.js';
import { activeRuns, newRunId, releaseRun } from './run-resources.js';
import { allocateSandboxUid, type UidLease } from './uid.js';
import { RunWatchdog } from './watchdog.js';
import { armInChain, holderReady, warmBlocker, warmProfileOf, warmProfileOfRequest, zygoteFor } from './warm.js';
import type { ArmedRun, GoRequest, PythonZygote, WarmProfile } from './zygote.js';
import { chownTree, createWorkDir, keepWorkDirs, sandboxRoot, sweepStaleWorkDirsOnce, writeInputs } from './workdir.js';

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
}

export class SandboxCancelledError extends Error {
  override name = 'SandboxCancelledError';
  constructor(readonly result: SandboxResult, readonly reason: unknown) {
    super(`sandbox run ${result.runId} was cancelled after ${Math.round(result.durationMs)} ms and its processes were killed`);
  }
}

const TAIL_BYTES = 6 * 1024;
const RESULT_BUDGET_BYTES = 15 * 1024;
const MIN_TAIL_CHARS = 512;
const DEFAULT_HEARTBEAT_MS = 5_000;
const DEFAULT_KILL_AFTER_OUTPUT = 1024 * 1024 * 1024;
/** After the main process exits, how long stray holders of its pipes get before we stop reading. */
const PIPE_GRACE_MS = 2_000;
const MiB = 1024 * 1024;
/** How long a chain of a per-run warm start gets to bring its holder up. */
const HOLDER_TIMEOUT_MS = 30_000;
/**
 * How long a run waits for a warm python that is still importing; then it goes cold (the import
 * goes on for later runs). PHYSVEC_SANDBOX_WARM_WAIT_MS changes it (e.g. to check a suite warm).
 */
function warmWaitMs(): number {
  const v = Number(process.env.PHYSVEC_SANDBOX_WARM_WAIT_MS);
  return Number.isFinite(v) && v >= 0 ? v : 2_000;
}

async function readyWithin(zygote: PythonZygote, ms: number): Promise<{ vmDataBytes: number }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('it is still importing its modules (a worker warms it at start with warmUpSandbox)')), ms);
  });
  try {
    return await Promise.race([zygote.ready(), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function parseSandboxRequest(input: unknown): SandboxRequest {
  const parsed = SandboxRequest.safeParse(input);
  if (!parsed.success) throw badInputFromZod(parsed.error, 'sandbox request');
  return parsed.data;
}

function canRunAs(setpriv: string, uid: number, executable: string, workDir: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      setpriv,
      [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', '/usr/bin/test', '-x', executable, '-a', '-w', workDir],
      { timeout: 10_000 },
      (err) => resolve(!err),
    );
  });
}

function signalFromBwrapExit(code: number | null): string | null {
  if (code === null || code <= 128 || code > 128 + 64) return null;
  const n = code - 128;
  return Object.entries(osConstants.signals).find(([, v]) => v === n)?.[0] ?? null;
}

/** The run started ahead of this one that is exactly the chain it would start, taken (prestart.ts); else null. */
async function takePrestartedFor(req: SandboxRequest, runner: ResolvedRunner, plan: IsolationPlan, store: ArtifactStore): Promise<Prestarted | null> {
  if (!prestartWanted() || warmBlocker(req, plan, plan.dropPrivileges, plan.cgroup !== null) !== null) return null;
  const profile = await warmProfileOfRequest(req, store);
  return takePrestarted(profile, (pre) => {
    if (pre.zygote !== zygoteFor(runner, profile) || pre.vmDataBytes > (req.memoryMb * MiB) / 2) return false;
    const own = buildLaunch(req, runner, plan, pre.lease.uid, pre.workDir, pre.privateDir, pre.cgroup, pre.zygote, false);
    return path.dirname(pre.workDir) === sandboxRoot() && isDeepStrictEqual(own.argv, pre.launch.argv);
  });
}

export async function runSandboxed(input: SandboxRequestInput, opts: RunSandboxOptions = {}): Promise<SandboxResult> {
  const clock = new PhaseClock();
 
  const req = parseSandboxRequest(input);
  const store = opts.store ?? artifactStore();
  opts.signal?.throwIfAborted();
  const runner = await runnerFor(req.language);
  const probe = opts.probe ?? (await probeIsolation());
  let plan = planIsolation(probe, opts.isolation ?? isolationModeFromEnv());

  sweepStaleWorkDirsOnce();
  if (plan.cgroup) {
    sweepStaleCgroupsOnce(plan.cgroup, activeRuns);
    retryLeftCgroups();
  }
  const pre = await takePrestartedFor(req, runner, plan, store);
  const runId = pre?.runId ?? newRunId();
  clock.mark(pre ? 'request, probe, sweeps, take the pre-started chain' : 'request, probe, sweeps');
  const { dir: workDir, privateDir } = pre ? { dir: pre.workDir, privateDir: pre.privateDir } : await createWorkDir(runId);
  let lease: UidLease | null = pre?.lease ?? null;
  let cgroup: RunCgroup | null = pre?.cgroup ?? null;
  /** The warm profile this run used or would have used: the next run of it gets a chain started ahead. */
  let profile: WarmProfile | null = pre?.profile ?? null;
  activeRuns.add(runId);
  try {
    await writeInputs(workDir, req.files, store);
    await opts.beforeStart?.({ workDir, privateDir });
    const mplConfigDir = runner.env({ workDir, privateDir }).MPLCONFIGDIR;
    if (mplConfigDir && !pre) seedMatplotlibCache(mplConfigDir);
    clock.mark('work dir, inputs, font list');
    if (pre) {
      await chownTree(workDir, pre.lease.uid);
    } else if (plan.dropPrivileges) {
      lease = await allocateSandboxUid();
      await chownTree(workDir, lease.uid);
      // Without bwrap to re-expose them, the interpreter and work dir must be reachable as they are.
      if (!plan.bwrap && !(await canRunAs(plan.setpriv!, lease.uid, runner.executable, workDir))) {
        await lease.release();
        lease = null;
        plan = withoutPrivilegeDrop(plan, `the run's uid could not reach ${runner.executable} or the work dir without bwrap to re-expose them`);
      }
    }
    const uid = lease?.uid ?? null;
    clock.mark('uid lease, chown');
    if (plan.cgroup && !pre) {
      try {
        cgroup = RunCgroup.create(plan.cgroup, runId, { memoryBytes: req.memoryMb * MiB, maxProcesses: req.maxProcesses });
      } catch (err) {
        plan = withoutRunCgroup(plan, (err as Error).message);
      }
    }
    clock.mark('run cgroup');
    let coldReason = warmBlocker(req, plan, uid !== null, cgroup !== null);
    let zygote: PythonZygote | null = pre?.zygote ?? null;
    if (!pre && !coldReason) {
      profile = await warmProfileOf(workDir, req);
      zygote = zygoteFor(runner, profile);
      try {
        const info = await readyWithin(zygote, warmWaitMs());
        // The fork inherits the zygote's data segment, counted against RLIMIT_DATA like a cold run's own imports.
        if (info.vmDataBytes > (req.memoryMb * MiB) / 2) coldReason = `the warm python holds ${Math.round(info.vmDataBytes / MiB)} MiB, more than half this run's memory cap`;
      } catch (err) {
        coldReason = `the warm python is unavailable: ${(err as Error).message}`;
      }
    }
    let launch = buildLaunch(req, runner, plan, uid, workDir, privateDir, cgroup, coldReason ? null : zygote);
    clock.mark('launch plan');
    let outcome = await execute(launch, req, runId, workDir, opts, clock, pre);
    if (outcome.warmFailed !== null) {
      // Nothing of the script ran: the same run again, cold.
      coldReason = `the warm start failed (${outcome.warmFailed})`;
      launch = buildLaunch(req, runner, plan, uid, workDir, privateDir, cgroup, null);
      outcome = await execute(launch, req, runId, workDir, opts, clock, null);
    }

    const [stdout, stderr] = await Promise.all([
      storeStream(store, outcome.stdout, `${runId}.stdout.txt`),
      storeStream(store, outcome.stderr, `${runId}.stderr.txt`),
    ]);
    const cancelled = outcome.killedReason === 'cancelled';
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
      timedOut: outcome.killedReason === 'timeout',
      killedReason: outcome.killedReason,
      ok: outcome.exitCode === 0 && outcome.killedReason === null,
      durationMs: outcome.durationMs,
      stdoutTail: outcome.stdout.tailText(TAIL_BYTES),
      stderrTail: outcome.stderr.tailText(TAIL_BYTES),
      stdout,
      stderr,
      files: collected.files,
      skippedFiles: collected.skipped,
      isolation: { mode: plan.mode, missing: plan.missing, inForce: protectionsInForce(plan.missing), note: plan.note, uid },
      start: launch.zygote ? { path: 'warm', reason: null, chain: pre ? 'pre-started' : 'per-run' } : { path: 'cold', reason: coldReason },
      // A chain started ahead of its run is reported as the run would have started it (with the script's argv after the holder).
      command: launch.argv,
      envNames: Object.keys(launch.env).sort(),
      limits: { timeoutMs: req.timeoutMs, memoryMb: req.memoryMb, cpuSeconds: req.cpuSeconds ?? null, maxProcesses: req.maxProcesses, diskMb: req.diskMb },
      usage: { memoryPeakBytes: outcome.memoryPeakBytes, diskPeakBytes: outcome.diskPeakBytes },
      ...(keepWorkDirs() ? { workDir } : {}),
    };
    fitResultToPayload(result);
    // For checking which path a test suite really took (PHYSVEC_SANDBOX_TRACE_START=1).
    if (process.env.PHYSVEC_SANDBOX_TRACE_START === '1') console.error(`# sandbox start: ${result.start!.path}${result.start!.chain ? ` (${result.start!.chain} chain)` : ''}${coldReason ? ` (${coldReason})` : ''}`);
    if (cancelled) throw new SandboxCancelledError(result, opts.signal?.reason);
    return result;
  } finally {
   
    await releaseRun(runId, cgroup, lease, workDir);
   
    clock.mark('clean-up');
    opts.onPhases?.(clock.phases);
    if (profile) prestart(profile, req);
  }
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

interface Outcome {
  memoryPeakBytes: number | null;
  diskPeakBytes: number | null;
  exitCode: number | null;
  signal: string | null;
  killedReason: KilledReason;
  durationMs: number;
  stdout: HeadTailCapture;
  stderr: HeadTailCapture;
  /** The warm start could not make the run process (nothing of the script ran), and why. */
  warmFailed: string | null;
}

async function execute(launch: Launch, req: SandboxRequest, runId: string, workDir: string, opts: RunSandboxOptions, clock: PhaseClock, pre: Prestarted | null): Promise<Outcome> {
  const stdout = new HeadTailCapture(req.maxOutputBytes);
  const stderr = new HeadTailCapture(req.maxOutputBytes);
  const killAfter = opts.killAfterOutputBytes ?? DEFAULT_KILL_AFTER_OUTPUT;
  const started = performance.now();
  const chain: ChainProcess = pre && launch.zygote ? pre.chain : spawnChain(launch, workDir);
  const child = chain.child;
  let killedReason: KilledReason = null;
  let killing: Promise<void> | undefined;
  let exited = false;
  const kill = (reason: Exclude<KilledReason, null>) => {
    if (killedReason === null) killedReason = reason;
    if (child.pid !== undefined && !exited) killing ??= killRun(child.pid, launch.uid, launch.cgroup);
  };
  let warmFailed: string | null = null;
  if (launch.zygote) {
    const abandon = (why: string) => {
      warmFailed ??= why;
      if (child.pid !== undefined && !exited) killing ??= killRun(child.pid, launch.uid, launch.cgroup);
    };
    const go = { env: launch.env, workDir, entry: req.entry, args: [...req.args] };
    if (pre) {
      relayWarmRun(pre.armed, go, chain, stderr, abandon, clock, 'pre-started run: script handed over');
    } else {
      startWarm(launch, launch.zygote, chain, runId, warmRlimits(req), go, stderr, abandon, clock);
    }
  }
  const watchdog = new RunWatchdog(
    { cgroup: launch.cgroup, du: launch.plan.du, workDir, diskBytes: req.diskMb * MiB },
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

  const timeout = setTimeout(() => kill('timeout'), req.timeoutMs);
  const heartbeat = setInterval(() => {
    try {
      opts.onHeartbeat?.({ runId, elapsedMs: Math.round(performance.now() - started), stdoutBytes: stdout.totalBytes, stderrBytes: stderr.totalBytes });
    } catch {
      // A failing heartbeat sink must not take the run down.
    }
  }, opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  const onAbort = () => kill('cancelled');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();

  try {
    const { code, signal } = await chain.exited;
   
    const durationMs = performance.now() - started;
    clock.mark(launch.zygote ? 'script, its exit, holder and bwrap exit' : 'cold chain + script');
    // Sweep stragglers (daemons, orphans) even after a normal exit; inside bwrap they are already gone with the PID namespace.
    if (child.pid !== undefined) await (killing ?? killRun(child.pid, launch.uid, launch.cgroup));
    exited = true;
    clock.mark('straggler sweep');
    // A breach between the last tick and the exit still counts: the run went past its limit.
    await watchdog.stop();
    if (killedReason === null && watchdog.memoryBreached()) killedReason = 'memory';
    clock.mark('last disk/memory check');
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
      diskPeakBytes: watchdog.diskPeakBytes,
      warmFailed: killedReason === null ? warmFailed : null,
    };
  } catch (err) {
    if (child.pid !== undefined) await killRun(child.pid, launch.uid, launch.cgroup);
    throw new Error(`could not start ${launch.argv[0]}: ${(err as Error).message}`);
  } finally {
    await watchdog.stop().catch(() => undefined);
    clearTimeout(timeout);
    clearInterval(heartbeat);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** A warm run whose chain starts now: once its holder reports from inside the finished chain, arm the zygote's run process there and start it. */
function startWarm(
  launch: Launch,
  zygote: PythonZygote,
  chain: ChainProcess,
  runId: string,
  rlimits: Record<string, [number, number]>,
  go: GoRequest,
  stderr: HeadTailCapture,
  abandon: (why: string) => void,
  clock: PhaseClock,
): void {
  void holderReady(chain, HOLDER_TIMEOUT_MS).then((notReady) => {
    if (notReady) return abandon(notReady);
    clock.mark('cold chain to holder (cgroup join, prlimit, bwrap, setpriv, sh)');
    const armed = armInChain(chain, launch, zygote, runId, rlimits, go.workDir);
    if (typeof armed === 'string') return abandon(armed);
    clock.mark('find holder, payload');
    // Sent right behind the arm request: the per-run child starts the script as soon as it is armed.
    relayWarmRun(armed, go, chain, stderr, abandon, clock, 'zygote fork, namespaces, cgroup join, caps, script handed over');
  });
}

/** Hand the armed run its script; its end goes to the holder (128 + signal for a signal death, as bwrap reports it). */
function relayWarmRun(armed: ArmedRun, go: GoRequest, chain: ChainProcess, stderr: HeadTailCapture, abandon: (why: string) => void, clock: PhaseClock, phase: string): void {
  const holderStdin = chain.child.stdin!;
  holderStdin.on('error', () => undefined);
 
  const { started, done } = armed.go(go);
  void started.then((err) => {
    clock.mark(phase);
    if (err !== null) abandon(err);
  });
  void done.then((r) => {
    if ('error' in r) stderr.push(Buffer.from(`physvec sandbox: the warm python lost the run: ${r.error}\n`));
   
    const code = 'error' in r ? 125 : r.exitCode ?? 128 + (r.signal ?? 9);
    holderStdin.end(`${code}\n`);
  });
}
