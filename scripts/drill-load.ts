// drill-load (issue 24): the demo and the kill drill at idle and under CPU hogs this script starts
// and stops itself, side by side in one table: the load (1-min load average sampled through each
// phase), verdicts and numbers, false heartbeat timeouts, workflow-task timeouts, worker start-to-poll
// and the recovery of each kill. A benchmark, not a test: it asserts nothing, it prints.
//
//   node --import tsx scripts/drill-load.ts [--hog 30] [--hb-hog 80] [--kills 5] [--hb-kills 5] [--quick] [--no-demo] [--no-idle] [--port 17461]
//
// Phases: idle (demo + kill drill), hog N (demo + kill drill; N busy processes, default 30), and a
// heartbeat check at hog M (kill drill only; default 80; --hb-hog 0 leaves it out). --quick: 2 kills
// per drill instead of 5. Hogs run each in a session of its own at the neighbours' priority (the jobs
// of other users on a shared host); workers, the demo and the dev server start as an operator's would
// (each in a session of its own) and raise their own priority as configured (PHYSVEC_WORKER_NICE;
// `PHYSVEC_WORKER_NICE=off` measures the host without it). The script raises itself too: it is the
// stopwatch.
//
// The demo: `physvec demo` (the scripted model, in-process workers) against this script's dev server.
// The kill drill: the dimer pipeline with a script whose `main` sleeps 12 s; the simulation worker is
// killed (-9) during the programming stage's full run, by turns with a standby worker polling (it takes
// the retry) and without (a worker started at the kill takes it). Recovery: kill → the next attempt
// started. False heartbeat timeouts: attempts that ended by a heartbeat timeout on a worker this
// script did not kill, read from describe polls (every attempt's worker identity, pid@host) and from
// the histories (the retried attempt's lastFailure). Workflow-task timeouts and the longest workflow
// task come from the histories of every workflow of the phase.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { repoRoot } from '../lib/paths.js';
import { atNeighbourPriority, describePriority, raiseOwnPriority } from '../lib/process-priority.js';
import { answerHelp, benchServer, onAnyExit } from './bench-support.js';
import { startCpuHog } from './cpu-hog.js';
import { ATTEMPT_LINES_ENV, ATTEMPT_STARTED, HEARTBEAT_GAP, TIMED_OUT_ALIVE } from '../workers/timed-out-alive.js';
import { runQueueWaitNs, STALL_LINE } from '../workers/stall-lines.js';
import { WORKER_GONE_LINE } from '../workers/dead-worker-watchdog.js';
import { TASK_LOST_LINE } from '../workers/undelivered-attempt-sweeper.js';

answerHelp(import.meta.url);
const argv = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const quick = argv.includes('--quick');
const HOG = flag('--hog', 30);
const HB_HOG = flag('--hb-hog', 80);
const KILLS = flag('--kills', quick ? 2 : 5);
const HB_KILLS = flag('--hb-kills', KILLS);
const DEMO = !argv.includes('--no-demo');
const IDLE = !argv.includes('--no-idle');
const PORT = flag('--port', 17461);
const MAIN_SLEEP_S = 12;

const priority = raiseOwnPriority();
const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-drill-load-'));
// Every worker, the demo and this script share one state dir (artifacts, KB) and queues of their own.
process.env.PHYSVEC_QUEUE_PREFIX = `dl-${randomUUID().slice(0, 8)}`;
process.env.PHYSVEC_STATE_DIR = path.join(dir, 'state');
// Imported after the queue prefix is set: task queue names are read from the environment.
const { DIMER_TASK, sleepyDimerModel, startRepro, verdictsOf } = await import('../tests/pipeline/drill-support.js');

// ---------------------------------------------------------------- processes

interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  out: () => string;
  /** ms from spawn to the first "polling" line (workers) */
  ready: Promise<number>;
  exited: Promise<void>;
}

const live = new Set<Proc>();
/** Every process this script started, in order: a phase counts the lines of those it started. */
const started: Proc[] = [];
onAnyExit(async () => {
  for (const p of live) p.child.kill('SIGKILL');
});

/** `physvec <args>` as an operator starts it: a session of its own, at the neighbours' priority (it raises itself). */
function physvec(name: string, args: string[], env: Record<string, string>): Proc {
  const t0 = Date.now();
  // As a user starts it: the `physvec` command (bin/physvec.js), from a shell at the neighbours' priority.
  const cmd = atNeighbourPriority([process.execPath, path.join(repoRoot, 'bin/physvec.js'), ...args]);
  const child = spawn(cmd[0]!, cmd.slice(1), { cwd: repoRoot, env: { ...process.env, PHYSVEC_LOG_LEVEL: 'ERROR', [ATTEMPT_LINES_ENV]: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // Each process's lines are kept for reading afterwards (the table only counts them).
  void exited.then(() => writeFileSync(path.join(dir, `${name.replace(/\W+/g, '-')}-${child.pid}.log`), out));
  const ready = new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (/polling/.test(out)) resolve(Date.now() - t0);
    });
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    void exited.then(() => reject(new Error(`${name} exited before it polled:\n${out.slice(-2000)}`)));
  });
  ready.catch(() => undefined);
  const p: Proc = { name, child, pid: child.pid!, out: () => out, ready, exited };
  live.add(p);
  started.push(p);
  void exited.then(() => live.delete(p));
  return p;
}

async function stop(p: Proc, signal: NodeJS.Signals): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill(signal);
  await p.exited;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 1_800_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------- observation

const HEARTBEAT = 4; // temporal.api.enums.v1.TimeoutType.TIMEOUT_TYPE_HEARTBEAT
const STARTED = 2; // PendingActivityState.PENDING_ACTIVITY_STATE_STARTED

interface Attempt {
  workflowId: string;
  activityId: string;
  type: string;
  attempt: number;
  pid?: number;
}

/** Everything the phase's polls saw: each attempt's worker, and which attempts ended by a heartbeat timeout. */
class Observer {
  readonly attempts = new Map<string, Attempt>();
  /** attempt key → when its heartbeat timeout was first seen (ms) */
  readonly heartbeatEnded = new Map<string, number>();
  /** Attempts some worker's activity code began (its "started" line): the rest the server handed out never reached a worker's code. */
  readonly ranInCode = new Set<string>();
  /** pid → when this script killed or stopped it (ms) */
  readonly killed = new Map<number, number>();
  readonly load: number[] = [];
  /** The dev server's threads: the longest run-queue wait in one 5 s window (ms). */
  serverWorstWaitMs = 0;
  private stopped = false;
  private readonly watched = new Set<string>();
  constructor(private readonly client: Client, private readonly serverPid: number) {}

  watch(workflowId: string): void {
    this.watched.add(workflowId);
  }

  async run(): Promise<void> {
    let lastLoad = 0;
    let lastServerWait = runQueueWaitNs(this.serverPid);
    while (!this.stopped) {
      if (Date.now() - lastLoad >= 5000) {
        this.load.push(os.loadavg()[0]!);
        lastLoad = Date.now();
        const wait = runQueueWaitNs(this.serverPid);
        this.serverWorstWaitMs = Math.max(this.serverWorstWaitMs, (wait - lastServerWait) / 1e6);
        lastServerWait = wait;
      }
      for (const id of this.watched) await this.poll(id).catch(() => undefined);
      await sleep(500);
    }
  }

  stop(): void {
    this.stopped = true;
  }

  private async poll(workflowId: string): Promise<void> {
    const d = await this.client.workflow.getHandle(workflowId).describe();
    for (const p of d.raw.pendingActivities ?? []) {
      const activityId = p.activityId ?? '';
      const attempt = p.attempt ?? 1;
      const key = `${workflowId}/${activityId}`;
      if (Number(p.lastFailure?.timeoutFailureInfo?.timeoutType) === HEARTBEAT && attempt > 1) this.sawHeartbeatEnd(`${key}#${attempt - 1}`, Date.now());
      if (Number(p.state) === STARTED) {
        const pid = Number(/^(\d+)@/.exec(p.lastWorkerIdentity ?? '')?.[1]);
        this.attempts.set(`${key}#${attempt}`, { workflowId, activityId, type: p.activityType?.name ?? '', attempt, pid: Number.isFinite(pid) ? pid : undefined });
      }
    }
  }

  sawHeartbeatEnd(attemptKey: string, at: number): void {
    this.heartbeatEnded.set(attemptKey, Math.min(at, this.heartbeatEnded.get(attemptKey) ?? at));
  }

  /** Which process started each attempt, from the workers' own lines (PHYSVEC_ATTEMPT_LINES): exact where a poll may miss a short attempt. */
  learnAttempts(lines: string, pid: number): void {
    for (const line of lines.split('\n')) {
      const m = ATTEMPT_STARTED.exec(line);
      if (!m) continue;
      const [workflowId, activityId] = [m[1]!.slice(0, m[1]!.lastIndexOf('/')), m[1]!.slice(m[1]!.lastIndexOf('/') + 1)];
      const key = `${m[1]}#${m[2]}`;
      this.ranInCode.add(key);
      this.attempts.set(key, { ...(this.attempts.get(key) ?? { workflowId, activityId, type: '', attempt: Number(m[2]) }), pid: Number(m[3]) || pid });
    }
  }

  /**
   * How the attempt `key#n` that ended by a heartbeat timeout came to end: `true` — its worker had been
   * killed or stopped by this script by then; `false` — its worker still lived (a false timeout);
   * `unattributed` — no line or poll says which process held it; `undelivered` — the server recorded
   * it as started by a live worker's poll, but no worker's activity code ever began it (no "started"
   * line anywhere): the task was lost between the server and the worker, no heartbeat was late.
   */
  classify(attemptKey: string): 'true' | 'false' | 'unattributed' | 'undelivered' {
    const a = this.attempts.get(attemptKey);
    const at = this.heartbeatEnded.get(attemptKey)!;
    if (a?.pid === undefined) return 'unattributed';
    const endedAt = this.killed.get(a.pid);
    if (endedAt !== undefined && endedAt <= at) return 'true';
    return this.ranInCode.has(attemptKey) ? 'false' : 'undelivered';
  }
}

interface HistoryFacts {
  /** Lines of live workers (the demo's in-process ones included) saying the server timed out one of their attempts. */
  timedOutAlive: string[];
  /** Attempts of a killed worker that a live worker of the host failed at once (workers/dead-worker-watchdog.ts). */
  workerGone: number;
  /** Attempts the server handed to a live worker that never reached it, failed by that worker (workers/undelivered-attempt-sweeper.ts). */
  taskLost: number;
  heartbeatTimeouts: number;
  falseHeartbeatTimeouts: string[];
  unattributedHeartbeatTimeouts: string[];
  undeliveredHeartbeatTimeouts: string[];
  /** by timeout type: start-to-close (a task not finished in 10 s), schedule-to-start (a sticky queue's worker gone) */
  workflowTaskTimeouts: Record<string, number>;
  longestWorkflowTaskMs: number;
  /** Windows (10 s) in which a worker's event loop or threads were held up > 1 s: count, worst delay, worst run-queue wait (ms). */
  heldUp: { windows: number; worstDelayMs: number; worstWaitMs: number };
  /** Heartbeat gaps > 5 s seen on the worker side: count, longest (ms). */
  heartbeatGaps: { count: number; longestMs: number };
}

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => (t ? Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6 : 0);

/** Heartbeat timeouts (polled and from the histories), workflow-task timeouts and the longest workflow task of the phase's workflows. */
async function historyFacts(client: Client, workflowIds: string[], obs: Observer, procs: Proc[]): Promise<HistoryFacts> {
  const lines = procs.flatMap((p) => p.out().split('\n'));
  const timedOutAlive = lines.filter((l) => l.includes(TIMED_OUT_ALIVE));
  const workerGone = lines.filter((l) => WORKER_GONE_LINE.test(l)).length;
  const taskLost = lines.filter((l) => TASK_LOST_LINE.test(l)).length;
  const stalls = lines.map((l) => STALL_LINE.exec(l)).filter((m) => m !== null);
  const gaps = lines.map((l) => HEARTBEAT_GAP.exec(l)).filter((m) => m !== null).map((m) => Number(m[3]));
  for (const p of procs) obs.learnAttempts(p.out(), p.pid);
  const wftTimeouts: Record<string, number> = {};
  let longest = 0;
  for (const id of workflowIds) {
    const h = await client.workflow.getHandle(id).fetchHistory();
    const scheduled = new Map<string, string>();
    const wftStarted = new Map<string, number>();
    for (const e of h.events ?? []) {
      const eventId = String(e.eventId);
      if (e.activityTaskScheduledEventAttributes) scheduled.set(eventId, e.activityTaskScheduledEventAttributes.activityId ?? '');
      const st = e.activityTaskStartedEventAttributes;
      if (st && (st.attempt ?? 1) > 1 && Number(st.lastFailure?.timeoutFailureInfo?.timeoutType) === HEARTBEAT) obs.sawHeartbeatEnd(`${id}/${scheduled.get(String(st.scheduledEventId))}#${(st.attempt ?? 1) - 1}`, ms(e.eventTime));
      const to = e.activityTaskTimedOutEventAttributes;
      if (to && Number(to.failure?.timeoutFailureInfo?.timeoutType) === HEARTBEAT) obs.sawHeartbeatEnd(`${id}/${scheduled.get(String(to.scheduledEventId))}#last`, ms(e.eventTime));
      const wft = e.workflowTaskTimedOutEventAttributes;
      if (wft) {
        const type = Number(wft.timeoutType) === 2 ? 'schedule-to-start' : Number(wft.timeoutType) === 1 ? 'start-to-close' : String(wft.timeoutType);
        wftTimeouts[type] = (wftTimeouts[type] ?? 0) + 1;
      }
      if (e.workflowTaskStartedEventAttributes) wftStarted.set(eventId, ms(e.eventTime));
      const done = e.workflowTaskCompletedEventAttributes;
      if (done) longest = Math.max(longest, ms(e.eventTime) - (wftStarted.get(String(done.startedEventId)) ?? ms(e.eventTime)));
    }
  }
  const ended = [...obs.heartbeatEnded.keys()];
  return {
    timedOutAlive,
    workerGone,
    taskLost,
    heartbeatTimeouts: obs.heartbeatEnded.size,
    falseHeartbeatTimeouts: ended.filter((k) => obs.classify(k) === 'false'),
    unattributedHeartbeatTimeouts: ended.filter((k) => obs.classify(k) === 'unattributed'),
    undeliveredHeartbeatTimeouts: ended.filter((k) => obs.classify(k) === 'undelivered'),
    workflowTaskTimeouts: wftTimeouts,
    longestWorkflowTaskMs: longest,
    heldUp: { windows: stalls.length, worstDelayMs: Math.max(0, ...stalls.map((m) => Number(m[2]))), worstWaitMs: Math.max(0, ...stalls.map((m) => Number(m[3]))) },
    heartbeatGaps: { count: gaps.length, longestMs: Math.max(0, ...gaps) },
  };
}

// ---------------------------------------------------------------- the two runs of a phase

interface Outcome {
  status: string;
  verdicts: string;
  numbers: string;
  wallS: number;
}

/** Verdicts and the final run's files (the numbers, the figure) of a finished reproduction. */
async function outcomeOf(handle: WorkflowHandle, t0: number): Promise<Outcome> {
  const r = (await handle.result().catch((err: Error) => ({ status: `error: ${err.message}` }))) as { status: string; report?: { jsonPath: string } };
  type Report = Parameters<typeof verdictsOf>[0] & { finalRun?: { results?: unknown[]; files?: { path: string; sha256: string }[] } };
  const report = r.report ? (JSON.parse(readFileSync(r.report.jsonPath, 'utf8')) as Report) : undefined;
  // The numbers: the final run's named results (to the last digit) and its files' contents (the figure among them).
  const final = report?.finalRun;
  const numbers = final ? createHash('sha256').update(JSON.stringify([final.results ?? [], (final.files ?? []).map((f) => [f.path, f.sha256]).sort()])).digest('hex').slice(0, 12) : '-';
  return {
    status: r.status,
    verdicts: report ? JSON.stringify(verdictsOf(report)) : '-',
    numbers,
    wallS: (Date.now() - t0) / 1000,
  };
}

interface DemoFigures extends Outcome {
  workflowId: string;
  toWorkflowS: number;
}

async function demo(client: Client, address: string, obs: Observer): Promise<DemoFigures> {
  const t0 = Date.now();
  const p = physvec('demo', ['demo'], { TEMPORAL_ADDRESS: address });
  const workflowId = await waitFor('the demo to start its workflow', async () => /^workflow (\S+)/m.exec(p.out())?.[1], 3_600_000);
  const toWorkflowS = (Date.now() - t0) / 1000;
  obs.watch(workflowId);
  const outcome = await outcomeOf(client.workflow.getHandle(workflowId), t0);
  await p.exited;
  return { ...outcome, workflowId, toWorkflowS };
}

interface Kill {
  mode: 'standby' | 'restarted';
  attempt: number;
  recoveryS: number;
  startToPollS?: number;
  /** Kill to the killed attempt failed on the server (its retry pending), and how it was failed. */
  failedS?: number;
  failure?: string;
}

/** How an attempt was failed, from a pending activity's lastFailure: its type (WorkerGone, TaskLost…) or the timeout. */
function failureKind(f: { message?: string | null; applicationFailureInfo?: { type?: string | null } | null; timeoutFailureInfo?: { timeoutType?: unknown } | null } | null | undefined): string {
  if (!f) return '?';
  if (f.applicationFailureInfo?.type) return f.applicationFailureInfo.type;
  if (f.timeoutFailureInfo) return `timeout ${String(f.timeoutFailureInfo.timeoutType)}`;
  return (f.message ?? '?').slice(0, 40);
}

interface DrillFigures extends Outcome {
  workflowId: string;
  kills: Kill[];
  startToPollS: number[];
}

async function killDrill(client: Client, address: string, obs: Observer, kills: number): Promise<DrillFigures> {
  const env = { TEMPORAL_ADDRESS: address };
  const startToPollS: number[] = [];
  const polled = async (w: Proc) => {
    const t = await w.ready;
    startToPollS.push(t / 1000);
    return t;
  };
  const orch = physvec('orchestration worker', ['worker', '--queue', 'orchestration'], env);
  let sims = [physvec('simulation worker', ['worker', '--queue', 'simulation'], env), physvec('standby simulation worker', ['worker', '--queue', 'simulation'], env)];
  await Promise.all([orch, ...sims].map(polled));
  const t0 = Date.now();
  const handle = await startRepro(client, { model: sleepyDimerModel(MAIN_SLEEP_S), taskFile: DIMER_TASK });
  obs.watch(handle.workflowId);
  const full = () => waitFor('the full run', async () => {
    const d = await handle.describe();
    const stage = d.searchAttributes.Stage?.[0];
    if (stage !== 'programming') return undefined;
    return (d.raw.pendingActivities ?? []).find((p) => p.activityType?.name === 'runJob' && Number(p.state) === STARTED && /"label":"full"/.test(Buffer.from(p.heartbeatDetails?.payloads?.[0]?.data ?? []).toString()));
  });
  const first = await full();
  const activityId = first.activityId!;
  let attempt = first.attempt ?? 1;
  // -1: the run ended first (on a loaded host the full run can finish between a look and a kill).
  // `failed` (if given) is told when attempt n is first seen in any state: attempt n-1 was failed.
  const startedOn = (n: number, failed?: (failure: string) => void) => waitFor(`attempt ${n} of the full run`, async () => {
    const d = await handle.describe();
    if (d.status.name !== 'RUNNING') return -1;
    const p = d.raw.pendingActivities?.find((a) => a.activityId === activityId);
    if (p && (p.attempt ?? 1) >= n && failed) {
      failed(failureKind(p.lastFailure));
      failed = undefined;
    }
    if (!p || Number(p.state) !== STARTED || (p.attempt ?? 1) < n) return undefined;
    return Number(/^(\d+)@/.exec(p.lastWorkerIdentity ?? '')?.[1]);
  }, 1_800_000, 100);
  const done: Kill[] = [];
  for (let i = 0; i < kills; i++) {
    const mode = i % 2 === 0 ? 'standby' : 'restarted';
    const pid = await startedOn(attempt);
    if (pid === -1) {
      console.error(`drill-load: the run ended before kill ${i + 1} of ${kills}`);
      break;
    }
    const victim = sims.find((w) => w.pid === pid);
    if (!victim) throw new Error(`attempt ${attempt} of the full run is on pid ${pid}, not one of this drill's simulation workers`);
    if (mode === 'restarted') {
      // The victim must be the only simulation worker: the others stop first (gracefully, idle).
      for (const w of sims.filter((x) => x !== victim)) {
        obs.killed.set(w.pid, Date.now()); // stopped, not killed: what it held is retried all the same
        await stop(w, 'SIGTERM');
      }
      sims = [victim];
    } else {
      const spare = sims.filter((x) => x !== victim);
      if (!spare.length) sims.push(physvec('standby simulation worker', ['worker', '--queue', 'simulation'], env));
      await Promise.all(sims.filter((x) => x !== victim).map((w) => w.ready));
    }
    await sleep(500);
    const t = Date.now();
    obs.killed.set(victim.pid, t);
    await stop(victim, 'SIGKILL');
    sims = sims.filter((x) => x !== victim);
    let restarted: Proc | undefined;
    if (mode === 'restarted') {
      restarted = physvec('restarted simulation worker', ['worker', '--queue', 'simulation'], env);
      sims.push(restarted);
    }
    let failedS: number | undefined;
    let failure: string | undefined;
    const on = await startedOn(attempt + 1, (kind) => {
      failedS = (Date.now() - t) / 1000;
      failure = kind;
    });
    if (on === -1) {
      console.error(`drill-load: the run ended before attempt ${attempt + 1} of the full run (the killed attempt had finished)`);
      break;
    }
    const recoveryS = (Date.now() - t) / 1000;
    const startToPoll = restarted ? (await polled(restarted)) / 1000 : undefined;
    done.push({ mode, attempt, recoveryS, startToPollS: startToPoll, failedS, failure });
    console.error(`drill-load: kill ${i + 1} (${mode}, attempt ${attempt}): failed on the server after ${failedS?.toFixed(1) ?? '?'} s (${failure ?? '?'}), attempt ${attempt + 1} started after ${recoveryS.toFixed(1)} s on pid ${on}${restarted ? ` (restarted worker polled after ${startToPoll?.toFixed(1)} s)` : ''}`);
    attempt++;
    // A standby for the next standby kill, started now so it polls by then.
    if (i + 1 < kills && mode === 'restarted') sims.push(physvec('standby simulation worker', ['worker', '--queue', 'simulation'], env));
  }
  const outcome = await outcomeOf(handle, t0);
  for (const w of [orch, ...sims]) await stop(w, 'SIGTERM');
  return { ...outcome, workflowId: handle.workflowId, kills: done, startToPollS };
}

// ---------------------------------------------------------------- phases and the table

interface Phase {
  label: string;
  hog: number;
  serverWorstWaitMs: number;
  demo?: DemoFigures;
  drill?: DrillFigures;
  load: number[];
  facts: HistoryFacts;
}

async function phase(client: Client, address: string, serverPid: number, label: string, hog: number, withDemo: boolean, kills: number): Promise<Phase> {
  console.error(`drill-load: phase ${label}…`);
  const stopHog = hog > 0 ? startCpuHog(hog, { sessions: true }) : async () => undefined;
  if (hog > 0) await waitFor(`load ${0.8 * hog}`, async () => (os.loadavg()[0]! >= 0.8 * hog ? true : undefined), 180_000, 2000).catch(() => undefined);
  const obs = new Observer(client, serverPid);
  const watching = obs.run();
  const firstProc = started.length;
  try {
    const d = withDemo ? await demo(client, address, obs) : undefined;
    if (d) console.error(`drill-load: ${label} demo ${d.status} in ${d.wallS.toFixed(0)} s`);
    const k = kills > 0 ? await killDrill(client, address, obs, kills) : undefined;
    if (k) console.error(`drill-load: ${label} kill drill ${k.status} in ${k.wallS.toFixed(0)} s`);
    obs.stop();
    await watching;
    const facts = await historyFacts(client, [d?.workflowId, k?.workflowId].filter((x): x is string => !!x), obs, started.slice(firstProc));
    return { label, hog, serverWorstWaitMs: obs.serverWorstWaitMs, demo: d, drill: k, load: obs.load, facts };
  } finally {
    obs.stop();
    await stopHog();
  }
}

const f1 = (x: number) => x.toFixed(1);
const range = (xs: number[]) => (xs.length ? `${f1(Math.min(...xs))}–${f1(Math.max(...xs))} (mean ${f1(xs.reduce((a, b) => a + b, 0) / xs.length)})` : '-');
const list = (xs: (number | undefined)[]) => (xs.length ? xs.map((x) => (x === undefined ? '-' : f1(x))).join(' ') : '-');

function table(phases: Phase[]): void {
  const ref = phases[0]!;
  const same = (a: string | undefined, b: string | undefined) => (a === undefined ? '-' : a === b ? `same as ${ref.label}` : `DIFFERS from ${ref.label}`);
  const rows: [string, (p: Phase) => string][] = [
    ['load (1-min avg, sampled)', (p) => range(p.load)],
    ['demo verdict', (p) => (p.demo ? `${p.demo.status}` : '-')],
    ['demo verdicts / numbers', (p) => (p.demo ? (p === ref ? `digest ${p.demo.numbers}` : `${same(p.demo.verdicts, ref.demo?.verdicts)} / ${same(p.demo.numbers, ref.demo?.numbers)}`) : '-')],
    ['demo wall (s), to its workflow (s)', (p) => (p.demo ? `${f1(p.demo.wallS)}, ${f1(p.demo.toWorkflowS)}` : '-')],
    ['kill drill verdict', (p) => (p.drill ? p.drill.status : '-')],
    ['kill drill verdicts / numbers', (p) => (p.drill ? (p === ref ? `digest ${p.drill.numbers}` : `${same(p.drill.verdicts, ref.drill?.verdicts)} / ${same(p.drill.numbers, ref.drill?.numbers)}`) : '-')],
    ['kill drill wall (s)', (p) => (p.drill ? f1(p.drill.wallS) : '-')],
    ['recovery, standby (s)', (p) => list(p.drill?.kills.filter((k) => k.mode === 'standby').map((k) => k.recoveryS) ?? [])],
    ['recovery, restarted worker (s)', (p) => list(p.drill?.kills.filter((k) => k.mode === 'restarted').map((k) => k.recoveryS) ?? [])],
    ['  of which: kill to attempt failed (s; how)', (p) => (p.drill?.kills.length ? p.drill.kills.map((k) => `${k.mode[0]}:${k.failedS === undefined ? '-' : f1(k.failedS)} ${k.failure ?? '?'}`).join(', ') : '-')],
    ['worker start-to-poll, first 3 at once (s)', (p) => list(p.drill?.startToPollS.slice(0, 3) ?? [])],
    ['worker start-to-poll, restarted (s)', (p) => list(p.drill?.kills.filter((k) => k.mode === 'restarted').map((k) => k.startToPollS) ?? [])],
    ['kills noticed by a live worker (attempts failed as WorkerGone)', (p) => String(p.facts.workerGone)],
    ['lost in delivery, failed by the live worker (TaskLost)', (p) => String(p.facts.taskLost)],
    ['heartbeat timeouts (all)', (p) => String(p.facts.heartbeatTimeouts)],
    ['false heartbeat timeouts (live workers said)', (p) => `${p.facts.timedOutAlive.length}${p.facts.timedOutAlive.length ? ` (${p.facts.timedOutAlive.slice(0, 3).map((l) => /activity (\w+ \(workflow [^)]*\))/.exec(l)?.[1] ?? l).join('; ')})` : ''}`],
    ['false heartbeat timeouts (histories)', (p) => `${p.facts.falseHeartbeatTimeouts.length}${p.facts.falseHeartbeatTimeouts.length ? ` (${p.facts.falseHeartbeatTimeouts.slice(0, 3).join(', ')})` : ''}${p.facts.unattributedHeartbeatTimeouts.length ? `; ${p.facts.unattributedHeartbeatTimeouts.length} unattributed` : ''}`],
    ['timed out, never reached a live worker\'s code (lost in delivery)', (p) => `${p.facts.undeliveredHeartbeatTimeouts.length}${p.facts.undeliveredHeartbeatTimeouts.length ? ` (${p.facts.undeliveredHeartbeatTimeouts.slice(0, 3).join(', ')})` : ''}`],
    ['workflow-task timeouts', (p) => Object.entries(p.facts.workflowTaskTimeouts).map(([k, n]) => `${n} ${k}`).join(', ') || '0'],
    ['longest workflow task (s, wall)', (p) => f1(p.facts.longestWorkflowTaskMs / 1000)],
    ['workers held up > 1 s (10 s windows; worst loop delay, run-queue wait)', (p) => `${p.facts.heldUp.windows}; ${f1(p.facts.heldUp.worstDelayMs / 1000)} s, ${f1(p.facts.heldUp.worstWaitMs / 1000)} s`],
    ['dev server: worst run-queue wait in a 5 s window (s)', (p) => f1(p.serverWorstWaitMs / 1000)],
    ['heartbeat gaps > 5 s on workers (count; longest)', (p) => `${p.facts.heartbeatGaps.count}; ${f1(p.facts.heartbeatGaps.longestMs / 1000)} s`],
  ];
  const w0 = Math.max(...rows.map(([n]) => n.length)) + 2;
  const cells = phases.map((p) => rows.map(([, f]) => f(p)));
  const widths = phases.map((p, i) => Math.max(p.label.length, ...cells[i]!.map((c) => c.length)) + 2);
  console.log(`drill-load on ${os.availableParallelism()} cores, ${describePriority(priority)}; kills per drill ${KILLS} (heartbeat check ${HB_KILLS}), main sleeps ${MAIN_SLEEP_S} s`);
  console.log(''.padEnd(w0) + phases.map((p, i) => p.label.padEnd(widths[i]!)).join(''));
  rows.forEach(([name], r) => console.log(name.padEnd(w0) + phases.map((_, i) => cells[i]![r]!.padEnd(widths[i]!)).join('')));
}

async function main(): Promise<void> {
  console.error(`drill-load: the processes' own lines are kept in ${dir}`);
  const { info, stop: stopServer } = await benchServer({ dir: path.join(dir, 'server'), port: PORT, uiPort: PORT + 1000 });
  const connection = await Connection.connect({ address: info.address });
  const client = new Client({ connection, namespace: 'default' });
  const phases: Phase[] = [];
  try {
    if (IDLE) phases.push(await phase(client, info.address, info.pid, 'idle', 0, DEMO, KILLS));
    if (HOG > 0) phases.push(await phase(client, info.address, info.pid, `hog ${HOG}`, HOG, DEMO, KILLS));
    if (HB_HOG > 0) phases.push(await phase(client, info.address, info.pid, `hog ${HB_HOG} (heartbeats)`, HB_HOG, false, HB_KILLS));
  } finally {
    if (phases.length) table(phases);
    await connection.close();
    await stopServer();
  }
}

await main();
process.exit(0);
