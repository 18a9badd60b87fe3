// Shared by the infrastructure drills and the endings test: workers as child processes (so a test can
// kill -9 or SIGTERM them), the dimer pipeline task with a cassette whose script sleeps in `main`
// (so a full-script sandbox run lasts long enough to be interrupted), and reading a running
// workflow's pending activities back from Temporal.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { repoRoot } from '../../lib/paths.js';
import { buildId, BUILD_ID_ENV } from '../../lib/temporal/build-id.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { SA } from '../../temporal-config/search-attributes.js';
import type { ReproductionInput } from '../../schemas/pipeline.js';
import { waitFor as pollFor } from '../helpers/poll.js';
import type { SecondHost } from '../helpers/second-host.js';

export const DIMER_TASK = path.join(repoRoot, 'data', 'tasks', 'smoke', 'task_smoke_dimer_pipeline.json');
export const DIMER_MODEL = 'scripted:task_smoke_dimer_pipeline';

/** The dimer cassette with `time.sleep(seconds)` as the first statement of the Author script's `main`; returns its model id. */
export function sleepyDimerModel(seconds: number): string {
  const cassette = JSON.parse(readFileSync(path.join(repoRoot, 'data', 'cassettes', 'task_smoke_dimer_pipeline.json'), 'utf8'));
  const coder = cassette.entries.find((e: { role: string }) => e.role === 'coder');
  const script: string = coder.json.script;
  if (!script.includes('def main():\n')) throw new Error('the dimer cassette script has no `def main():` to put the sleep in');
  coder.json.script = script.replace('def main():\n', `def main():\n    __import__("time").sleep(${seconds})\n`);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-drill-')), 'sleepy-dimer.json');
  writeFileSync(file, JSON.stringify({ ...cassette, name: 'sleepy-dimer', description: `dimer pipeline, main sleeps ${seconds} s (drills)` }));
  return `scripted:${file}`;
}

/** Start a reproduction directly (no CLI pre-checks: the tests want the workflow's own endings). */
export async function startRepro(client: Client, opts: { model: string; taskFile?: string; limits?: ReproductionInput['limits']; budget?: ReproductionInput['budget']; pauseAfter?: ReproductionInput['pauseAfter']; id?: string }): Promise<WorkflowHandle> {
  const input: ReproductionInput = {
    taskFile: opts.taskFile ?? DIMER_TASK,
    models: { defaultModel: opts.model, roles: {} },
    budget: opts.budget ?? {},
    limits: opts.limits ?? {},
    pauseAfter: opts.pauseAfter ?? [],
  };
  return client.workflow.start('reproduction', {
    workflowId: opts.id ?? `drill-${randomUUID().slice(0, 8)}`,
    taskQueue: taskQueues().orchestration,
    args: [input],
    typedSearchAttributes: [
      { key: SA.TaskId, value: 'task_smoke_dimer_pipeline' },
      { key: SA.Framework, value: 'physvec' },
      { key: SA.Model, value: opts.model },
      { key: SA.Verdict, value: 'running' },
    ],
  });
}

export interface SpawnedWorker {
  proc: ChildProcess;
  /** Resolves with the ms from spawn to "polling" on stdout. */
  ready: Promise<number>;
  exited: Promise<void>;
  /** Its stdout, and its stderr when started with `output: 'capture'` (else stderr goes to the test's). */
  out(): string;
}

/** `physvec worker --queue <queue>` in a child process. */
export function spawnWorker(queue: 'orchestration' | 'simulation' | 'large' | 'all', env: Record<string, string> = {}, host?: SecondHost, output: 'inherit' | 'capture' = 'inherit'): SpawnedWorker {
  const t0 = Date.now();
  // The test's build (Worker Versioning pins a run to it): a worker started later in the test —
  // after the checkout changed under a long drill — must not register as another build.
  const fullEnv = { ...(process.env as Record<string, string>), PHYSVEC_LOG_LEVEL: 'ERROR', [BUILD_ID_ENV]: buildId(), ...env };
  const [cmd, ...args] = (host?.wrap ?? ((a: string[]) => a))([process.execPath, '--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), 'worker', '--queue', queue]);
  const proc = spawn(cmd!, args, {
    env: host ? host.env(fullEnv) : fullEnv,
    stdio: ['ignore', 'pipe', output === 'capture' ? 'pipe' : 'inherit'],
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  let out = '';
  proc.stderr?.on('data', (b: Buffer) => (out += b.toString()));
  const ready = new Promise<number>((resolve, reject) => {
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (/polling/.test(out)) resolve(Date.now() - t0);
    });
    void exited.then(() => reject(new Error(`worker --queue ${queue} exited before it polled`)));
  });
  ready.catch(() => undefined);
  return { proc, ready, exited, out: () => out };
}

export async function stopWorker(w: SpawnedWorker, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (w.proc.exitCode !== null || w.proc.signalCode !== null) return;
  w.proc.kill(signal);
  await w.exited;
}

export interface Pending {
  activityId: string;
  type: string;
  started: boolean;
  attempt: number;
  /** The sandbox job label from the run's heartbeat (`full`, `unit:f`, …), when it has one. */
  label?: string;
}

const STARTED = 2; // temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED

export async function pendingActivities(handle: WorkflowHandle): Promise<Pending[]> {
  const d = await handle.describe();
  return (d.raw.pendingActivities ?? []).map((p) => {
    let label: string | undefined;
    const payload = p.heartbeatDetails?.payloads?.[0]?.data;
    if (payload) {
      try {
        label = (JSON.parse(Buffer.from(payload).toString()) as { label?: string }).label ?? undefined;
      } catch {
        /* not JSON */
      }
    }
    return { activityId: p.activityId ?? '', type: p.activityType?.name ?? '', started: Number(p.state) === STARTED, attempt: p.attempt ?? 0, label };
  });
}

/** Drills poll faster than campaigns: recovery delays are measured from these polls. */
export const waitFor = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 600_000, everyMs = 200): Promise<T> =>
  pollFor(what, probe, timeoutMs, everyMs);

/** The verdicts a report records (what an interrupted run must reproduce exactly). */
export function verdictsOf(report: { status: string; programming: { iteration: number; executable: boolean; judge_result: { function: string; judge: string }[]; run_functions: { run_function: string; correct_ratio: number }[] }[]; scientific: { iteration: number; assertions: { case: string; judge: string }[] }[] }): unknown {
  return {
    status: report.status,
    programming: report.programming.map((p) => ({ iteration: p.iteration, executable: p.executable, units: p.judge_result.map((u) => `${u.function}:${u.judge}`), integration: p.run_functions.map((r) => `${r.run_function}:${r.correct_ratio}`) })),
    scientific: report.scientific.map((s) => ({ iteration: s.iteration, assertions: s.assertions.map((a) => `${a.case}:${a.judge}`) })),
  };
}
