// Warm-sandbox benchmark (not a test; issue 15): prints in one run, side by side,
//   (a) the demo's wall time, its physical limit computed from the run's own history and the ratio
//       (target ≤ 1.5), with where the wall time went;
//   (b) the fixed cost of one sandboxed run, cold and warm path, vs the script's own work
//       (scripts/bench-sandbox.ts; target: warm ≤ 60 ms over the work);
//   (c) 8 reproductions of one suite task, serially and as a campaign with concurrency 4, at a
//       scripted latency of 10 s per LLM answer (scripts/bench-campaign.ts; target ≥ 3×);
//   (d) issue 24 item 5 (scripts/bench-warm-pool.ts; not run unless asked: --only d): per toolchain a
//       warm run's own computation vs the same script cold (target within 5 %), the fixed cost on a
//       pre-started chain and on its own (target ≤ 60 ms each at load ≤ 5), bursts of 1/2/4 runs.
// Usage: node --import tsx scripts/bench-warm.ts [--only a,b,c,d] [--runs 5] [--repeats 5] [--latency-ms 10000] [--task task_smoke_dimer_pipeline]
// The physical limit of the demo: the light activities (union of their intervals), the sandbox
// computation on the critical path (each run's duration less the warm fixed cost measured here;
// overlapping runs share the machine's cores), one import of the toolchain, one interpreter start.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, venvPython } from '../lib/paths.js';
import { answerHelp, benchServer } from './bench-support.js';

answerHelp(import.meta.url);

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : dflt);
const only = new Set(opt('--only', 'a,b,c').split(','));
const runs = Number(opt('--runs', '5'));
const latencyMs = opt('--latency-ms', '10000');
const task = opt('--task', 'task_smoke_dimer_pipeline');
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const s = (ms: number) => `${(ms / 1000).toFixed(1).padStart(7)} s`;

/** Run a child to the end, echoing its stdout; resolves to what it printed. */
function child(argv: string[], env: Record<string, string>, echo = true): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, argv, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (echo) process.stdout.write(c);
    });
    p.stderr.on('data', () => undefined);
    p.once('error', reject);
    p.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${argv.join(' ')} exited ${code}: ${out.split('\n').slice(-3).join(' | ')}`))));
  });
}

function pythonWallMs(code: string, n = 3): number {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    execFileSync(venvPython, ['-c', code], { env: { PATH: '/usr/bin:/bin', MPLBACKEND: 'Agg', OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' } });
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(n / 2)]!;
}

type Interval = { start: number; end: number; type: string; runMs?: number };
const ts = (t: unknown): number => {
  const x = t as { seconds?: unknown; nanos?: number } | string;
  return typeof x === 'string' ? Date.parse(x) : Number(x?.seconds ?? 0) * 1000 + (x?.nanos ?? 0) / 1e6;
};
function union(xs: Interval[]): number {
  let total = 0, cs = -Infinity, ce = -Infinity;
  for (const { start, end } of [...xs].sort((a, b) => a.start - b.start)) {
    if (start > ce) {
      if (ce > cs) total += ce - cs;
      cs = start;
      ce = end;
    } else ce = Math.max(ce, end);
  }
  return ce > cs ? total + ce - cs : total;
}
/** Overlapping sandbox runs grouped: each group costs its longest run or its total over the cores, whichever is more. */
function computeOnCriticalPath(runsOf: Interval[], fixedMs: number, cores: number): number {
  let total = 0;
  let group: Interval[] = [];
  let end = -Infinity;
  const close = () => {
    if (!group.length) return;
    const work = group.map((r) => Math.max(0, (r.runMs ?? r.end - r.start) - fixedMs));
    total += Math.max(Math.max(...work), work.reduce((a, b) => a + b, 0) / cores);
  };
  for (const r of [...runsOf].sort((a, b) => a.start - b.start)) {
    if (r.start > end) {
      close();
      group = [];
    }
    group.push(r);
    end = Math.max(end, r.end);
  }
  close();
  return total;
}

async function demoTable(): Promise<void> {
  const { freePort } = await import('../lib/net/free-port.js');
  const { Client, Connection } = await import('@temporalio/client');
  const { runSandboxed, warmUpSandbox } = await import('../runners/sandbox/index.js');
  const { ArtifactStore } = await import('../lib/artifacts/store.js');
  const state = mkdtempSync(path.join(os.tmpdir(), 'physvec-bench-warm-'));
  const port = await freePort();
  const { info: server, stop: stopServer } = await benchServer({ dir: state, port, uiPort: await freePort() });
  try {
    console.log(`(a) the demo (load average ${load()})`);
    const t0 = performance.now();
    const out = await child(['bin/physvec.js', 'demo'], { TEMPORAL_ADDRESS: server.address, PHYSVEC_STATE_DIR: state }, false);
    const wall = performance.now() - t0;
    const workflowId = /^workflow (\S+)/m.exec(out)?.[1];
    const verdict = out.split('\n').filter((l) => /verdict|result|status/i.test(l)).slice(0, 3).join(' | ');
    if (!workflowId) throw new Error(`the demo printed no workflow id: ${out.slice(-300)}`);
    const client = new Client({ connection: await Connection.connect({ address: server.address }) });
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    const events = history.events ?? [];
    const scheduled = new Map<string, string>();
    const started = new Map<string, number>();
    const acts: Interval[] = [];
    for (const e of events) {
      const id = String(e.eventId);
      if (e.activityTaskScheduledEventAttributes) scheduled.set(id, e.activityTaskScheduledEventAttributes.activityType?.name ?? '?');
      if (e.activityTaskStartedEventAttributes) started.set(String(e.activityTaskStartedEventAttributes.scheduledEventId), ts(e.eventTime));
      const done = e.activityTaskCompletedEventAttributes;
      if (done) {
        const sid = String(done.scheduledEventId);
        const type = scheduled.get(sid) ?? '?';
        let runMs: number | undefined;
        try {
          const data = done.result?.payloads?.[0]?.data;
          if (data) runMs = Number((JSON.parse(Buffer.from(data).toString()) as { durationMs?: number }).durationMs) || undefined;
        } catch {
          // Not a JSON payload.
        }
        acts.push({ start: started.get(sid) ?? ts(e.eventTime), end: ts(e.eventTime), type, ...(runMs ? { runMs } : {}) });
      }
    }
    const workflowWall = ts(events.at(-1)!.eventTime) - ts(events[0]!.eventTime);
    const sandboxRuns = acts.filter((a) => a.type === 'runJob' || a.type === 'runScript');
    const light = acts.filter((a) => !sandboxRuns.includes(a));
    // The warm fixed cost of one run, here and now (print(1): its own work is nil).
    process.env.PHYSVEC_STATE_DIR = state;
    await warmUpSandbox();
    const store = new ArtifactStore(path.join(state, 'bench-artifacts'));
    const fixed: number[] = [];
    for (let i = 0; i < 3; i++) {
      // As a run reaches a worker between runs: its chain started ahead is ready (prestart.ts).
      await new Promise((r) => setTimeout(r, 300));
      const t = performance.now();
      await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print(1)' }] }, { store });
      fixed.push(performance.now() - t);
    }
    const warmFixed = fixed.sort((a, b) => a - b)[1]!;
    const startup = pythonWallMs('pass');
    const importMs = pythonWallMs('import tenpy, matplotlib.pyplot') - startup;
    const compute = computeOnCriticalPath(sandboxRuns, warmFixed, os.cpus().length);
    const lightMs = union(light);
    const limit = lightMs + compute + importMs + startup;
    const sandboxUnion = union(sandboxRuns);
    const runsTotal = sandboxRuns.reduce((a, r) => a + (r.runMs ?? r.end - r.start), 0);
    console.log(`workflow ${workflowId}: ${verdict}`);
    console.log(`${'demo wall (process start to end)'.padEnd(58)} ${s(wall)}`);
    console.log(`${'  before the workflow ran (server check, worker start-up, bundle)'.padEnd(58)} ${s(wall - workflowWall)}`);
    console.log(`${'  workflow wall'.padEnd(58)} ${s(workflowWall)}`);
    console.log(`${`    sandbox runs (${sandboxRuns.length}; union of their intervals)`.padEnd(58)} ${s(sandboxUnion)}  (summed run time ${s(runsTotal).trim()}, of which warm fixed cost ${s(sandboxRuns.length * warmFixed).trim()})`);
    console.log(`${`    light activities (${light.length}; union)`.padEnd(58)} ${s(lightMs)}`);
    console.log(`${'    no activity running (Temporal, timers, workflow tasks)'.padEnd(58)} ${s(workflowWall - union(acts))}`);
    const byType = new Map<string, { n: number; ms: number }>();
    for (const a of acts) byType.set(a.type, { n: (byType.get(a.type)?.n ?? 0) + 1, ms: (byType.get(a.type)?.ms ?? 0) + a.end - a.start });
    const top = [...byType].sort((x, y) => y[1].ms - x[1].ms).slice(0, 6);
    console.log(`    by activity type (summed): ${top.map(([t, v]) => `${t} ${v.n}× ${(v.ms / 1000).toFixed(1)} s`).join(', ')}`);
    console.log(`physical limit = light ${s(lightMs).trim()} + computation on the critical path ${s(compute).trim()} + one tenpy import ${s(importMs).trim()} + one start-up ${s(startup).trim()} = ${s(limit).trim()}`);
    console.log(`ratio demo wall / physical limit: ${(wall / limit).toFixed(2)} (target ≤ 1.5); workflow wall / limit: ${(workflowWall / limit).toFixed(2)}`);
  } finally {
    await stopServer();
  }
}

console.log(`# bench-warm: ${os.cpus().length} cores, load average ${load()}`);
if (only.has('a')) await demoTable();
if (only.has('b')) {
  console.log('');
  await child(['--import', 'tsx', 'scripts/bench-sandbox.ts', '--runs', String(runs)], {});
}
if (only.has('c')) {
  console.log('');
  console.log(`(c) 8 reproductions of ${task}, serial vs campaign at concurrency 4, ${latencyMs} ms per LLM answer`);
  await child(['--import', 'tsx', 'scripts/bench-campaign.ts', '--latency-ms', latencyMs, '--runs', '8', '--concurrency', '4', '--tasks', task], {});
}
if (only.has('d')) {
  console.log('');
  await child(['--import', 'tsx', 'scripts/bench-warm-pool.ts', '--repeats', opt('--repeats', '5'), '--runs', String(Math.max(runs, 7))], {});
}
console.log(`# load average after: ${load()}`);
process.exit(0);
