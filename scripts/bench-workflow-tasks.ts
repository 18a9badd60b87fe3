// bench-workflow-tasks (issue 24.3): the CPU each workflow task of a recorded reproduction costs the
// worker that runs it, so "workflow tasks stay under 1 s of CPU each" is a measured figure. A benchmark,
// not a test: it prints.
//
//   node --import tsx scripts/bench-workflow-tasks.ts [history.json ...] [--repeat 3]
//
// Without arguments it reads the newest build's committed histories (tests/fixtures/histories/). A
// history of n workflow tasks is replayed as its n prefixes (the first k tasks, k = 1..n) by one replay
// worker; the CPU of task k is the process CPU (all threads: the workflow runs in a worker thread) of
// prefix k minus that of prefix k-1, the median of --repeat passes. Replay executes the same workflow
// code over the same inputs as the live task did, so this is the workflow code's own cost; what a live
// task adds (polling, the gRPC completion) is the SDK's and the same for every task. Printed: tasks,
// the median, p90 and largest per-task CPU, which task is the largest (the event it answered), the
// largest payload the history carries, and the load average while measuring.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { HISTORIES_DIR } from '../tests/helpers/histories.js';
import { workflowBundle } from '../workers/workflow-bundle.js';
import { answerHelp, median } from './bench-support.js';

answerHelp(import.meta.url);
const argv = process.argv.slice(2);
const repeatAt = argv.indexOf('--repeat');
const REPEAT = repeatAt >= 0 ? Number(argv[repeatAt + 1]) : 3;
const files = argv.filter((a, i) => !a.startsWith('--') && (repeatAt < 0 || i !== repeatAt + 1));

interface HistoryEvent { eventId: string | number; eventType: string }
interface History { events: HistoryEvent[] }

function defaultHistories(): string[] {
  const builds = readdirSync(HISTORIES_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const newest = path.join(HISTORIES_DIR, builds.at(-1)!);
  return readdirSync(newest).filter((f) => f.endsWith('.json')).map((f) => path.join(newest, f));
}

/** The history cut after each completed workflow task: prefix k holds the first k tasks. */
function prefixes(history: History): { history: History; lastEvent: string }[] {
  const out: { history: History; lastEvent: string }[] = [];
  history.events.forEach((e, i) => {
    if (e.eventType !== 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED') return;
    // The task answered what came before its WORKFLOW_TASK_SCHEDULED: name the last non-task event.
    const answered = history.events.slice(0, i).reverse().find((x) => !x.eventType.startsWith('EVENT_TYPE_WORKFLOW_TASK_'));
    out.push({ history: { ...history, events: history.events.slice(0, i + 1) }, lastEvent: `${answered?.eventType.replace('EVENT_TYPE_', '') ?? '-'} #${answered?.eventId ?? '-'}` });
  });
  return out;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function replayCpu(bundle: Awaited<ReturnType<typeof workflowBundle>>, name: string, cuts: { history: History }[]): Promise<number[]> {
  // One replay worker for every prefix; the CPU between two results is that prefix's replay.
  const cost: number[] = [];
  let t0 = cpuMs();
  const histories = cuts.map((c, k) => ({ workflowId: `${name}-${k + 1}`, history: c.history as never }));
  for await (const r of Worker.runReplayHistories({ workflowBundle: bundle }, histories)) {
    const t1 = cpuMs();
    if (r.error) throw new Error(`${r.workflowId}: replay failed: ${r.error.message}`);
    cost.push(t1 - t0);
    t0 = t1;
  }
  return cost;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

// The replay worker's state-change lines would bury the table.
Runtime.install({ logger: new DefaultLogger('WARN') });
const bundle = await workflowBundle();
const load0 = os.loadavg()[0]!;
console.log(`bench-workflow-tasks: ${REPEAT} passes, load ${load0.toFixed(1)} at start, ${os.cpus().length} cores`);
console.log('history | tasks | median ms | p90 ms | largest ms | largest task answered | largest event payload');
for (const file of files.length ? files : defaultHistories()) {
  const history = JSON.parse(readFileSync(file, 'utf8')) as History;
  const cuts = prefixes(history);
  const name = path.basename(file, '.json');
  const passes: number[][] = [];
  for (let p = 0; p < REPEAT; p++) passes.push(await replayCpu(bundle, name, cuts));
  const prefixCpu = cuts.map((_, k) => median(passes.map((pass) => pass[k]!)));
  // Task k's own cost: prefix k replays tasks 1..k; the fixed cost of a replay is in prefix 1's figure.
  const perTask = prefixCpu.map((c, k) => (k === 0 ? c : Math.max(0, c - prefixCpu[k - 1]!)));
  const worst = perTask.indexOf(Math.max(...perTask));
  const biggest = Math.max(...history.events.map((e) => JSON.stringify(e).length));
  console.log(`${path.relative(process.cwd(), file)} | ${cuts.length} | ${median(perTask).toFixed(1)} | ${quantile(perTask, 0.9).toFixed(1)} | ${perTask[worst]!.toFixed(1)} | task ${worst + 1} (${cuts[worst]!.lastEvent}) | ${(biggest / 1024).toFixed(1)} KiB`);
}
console.log(`load ${os.loadavg()[0]!.toFixed(1)} at end. Task 1's figure includes the replay's fixed cost (a new workflow context), an upper bound on that task.`);
