// drill-deploy: a deploy while a reproduction runs (issue 25), as an operator would do it, and the
// table of what the runs ended with.
//
//   node --import tsx scripts/drill-deploy.ts [--prev 8a5df32] [--prev-dir /work/prev-release] [--port 17391]
//                                             [--stages programming,scientific,final] [--keep]
//
// The previous release is a git worktree of `--prev` (made if missing; its own node_modules when its
// package-lock differs from this checkout's — `npm ci --prefer-offline` once —, else a symlink; the
// .venv a symlink when requirements.lock is the same, else the drill stops and says so). On a
// throw-away dev server (this checkout's `server start` settings), with one state dir and artifact
// store shared by every worker (one host):
//   - the reference: an undisturbed demo reproduction (bundled task, scripted model) on the previous
//     build's worker, under a queue prefix of its own (a separate deployment, so it runs alongside and
//     no deploy touches it), started with the previous build's CLI;
//   - the drilled run, started the same way on the previous build's worker (`physvec worker --queue
//     all` from its worktree, the deployment's current build). Once it is in the first stage (3 s
//     in): the deploy — SIGTERM the previous build's worker, start this checkout's worker (it becomes
//     current) and a `--no-promote` replacement of the previous build (the run is pinned to its build
//     and must finish there). At each later stage the previous build's worker serving it is SIGTERMed
//     again mid-stage and replaced (`--no-promote`). The run must end with the reference's verdicts
//     and numbers, every workflow task and activity served by previous-build workers (the worker
//     identities in its history), and the last replacement must say "drained";
//   - after the deploy, a new run started with this checkout's CLI must run on this checkout's build
//     (and end as the reference did).
// Prints a table: run, where it was interrupted, builds (workers) that served it, verdict, unit and
// integration accuracy, assertions, rubric grade, the numbers (sha256 of the final run's results and
// the assertions' observed values), the figure's sha256, whether all equal the reference's.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { repoRoot } from '../lib/paths.js';
import { buildId, BUILD_ID_ENV } from '../lib/temporal/build-id.js';
import { currentBuild } from '../workers/versioning.js';
import { ArtifactStore } from '../lib/artifacts/store.js';
import { kbDir } from '../lib/kb/paths.js';
import { QUEUE_PREFIX_ENV } from '../lib/temporal/task-queues.js';
import type { ReproductionResult } from '../workflows/reproduction/index.js';
import { answerHelp, benchServer, onAnyExit } from './bench-support.js';

answerHelp(import.meta.url);
const run = promisify(execFile);
const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : dflt;
};
const PREV = arg('--prev', '8a5df32');
const PREV_DIR = path.resolve(arg('--prev-dir', '/work/prev-release'));
const PORT = Number(arg('--port', '17391'));
const STAGES = arg('--stages', 'programming,scientific,final').split(',').filter(Boolean);
const KEEP = process.argv.includes('--keep');
const TASK_REL = 'data/tasks/dmrg/task_dmrg_tezuka_1a.json';
const MODEL = 'scripted:task_dmrg_tezuka_1a';
const HEAD_BUILD = buildId();
/** The reference run's queue prefix: a worker deployment of its own. */
const REFERENCE_PREFIX = 'physvec-reference';
/** Where the drilled run was when each SIGTERM came (stage and the activities in flight). */
const interruptions: string[] = [];

const root = mkdtempSync(path.join(os.tmpdir(), 'physvec-drill-deploy-'));
const stateDir = path.join(root, 'state');
const logDir = path.join(root, 'logs');
mkdirSync(logDir, { recursive: true });
const t0 = Date.now();
const stamp = () => `${((Date.now() - t0) / 1000).toFixed(0).padStart(5)} s`;
const say = (s: string) => console.log(`# ${stamp()} ${s}`);

async function git(args: string[], cwd = repoRoot): Promise<string> {
  return (await run('git', args, { cwd, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
}

/** The previous release's worktree, with node_modules and .venv it can run with. */
async function prepareCheckout(): Promise<void> {
  if (!existsSync(path.join(PREV_DIR, '.git'))) {
    say(`git worktree add --detach ${PREV_DIR} ${PREV}`);
    await git(['worktree', 'add', '--detach', PREV_DIR, PREV]);
  }
  const at = await git(['rev-parse', 'HEAD'], PREV_DIR);
  if (!at.startsWith(await git(['rev-parse', PREV]))) throw new Error(`${PREV_DIR} is at ${at.slice(0, 12)}, not ${PREV}: remove it (git worktree remove ${PREV_DIR}) or name another --prev-dir`);
  const same = (file: string) => existsSync(path.join(PREV_DIR, file)) && readFileSync(path.join(PREV_DIR, file), 'utf8') === readFileSync(path.join(repoRoot, file), 'utf8');
  const modules = path.join(PREV_DIR, 'node_modules');
  if (!existsSync(modules)) {
    if (same('package-lock.json')) symlinkSync(path.join(repoRoot, 'node_modules'), modules);
    else {
      say(`${PREV}'s package-lock.json differs from this checkout's: npm ci --prefer-offline in ${PREV_DIR}`);
      await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: PREV_DIR, maxBuffer: 64 * 1024 * 1024 });
    }
  }
  const venv = path.join(PREV_DIR, '.venv');
  if (!existsSync(venv)) {
    if (!same('requirements.lock')) throw new Error(`${PREV}'s requirements.lock differs from this checkout's: give ${PREV_DIR} a .venv of its own (bash scripts/bootstrap.sh there)`);
    symlinkSync(path.join(repoRoot, '.venv'), venv);
  }
}

interface Worker {
  name: string;
  build: string;
  proc: ChildProcess;
  lines: string[];
  exited: Promise<void>;
}
const workers: Worker[] = [];

/** `physvec worker --queue all` of a checkout; its output goes to <root>/logs/<name>.log. */
function startWorker(name: string, checkout: string, build: string, extra: string[] = [], prefix = 'physvec'): Worker {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    [QUEUE_PREFIX_ENV]: prefix,
    TEMPORAL_ADDRESS: `127.0.0.1:${PORT}`,
    PHYSVEC_STATE_DIR: stateDir,
    PHYSVEC_KB_DIR: path.join(root, 'kb'),
    // The deploy, not the warm pool, is drilled: every run starts its python cold (less CPU on a small host).
    PHYSVEC_SANDBOX_WARM: '0',
    PHYSVEC_LOG_LEVEL: 'WARN',
  };
  delete env[BUILD_ID_ENV];
  // The previous release names its build from its own git checkout; this checkout's is fixed at the start (edits mid-drill make no new build).
  if (checkout === repoRoot) env[BUILD_ID_ENV] = build;
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(checkout, 'cli/main.ts'), 'worker', '--queue', 'all', ...extra], { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(path.join(logDir, `${name}.log`));
  const w: Worker = { name, build, proc, lines: [], exited: new Promise((r) => proc.once('exit', () => r())) };
  for (const s of [proc.stdout!, proc.stderr!]) {
    s.on('data', (b: Buffer) => {
      log.write(b);
      for (const l of b.toString().split('\n').filter(Boolean)) w.lines.push(l);
    });
  }
  workers.push(w);
  return w;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, everyMs = 1000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const polling = (w: Worker) => waitFor(`${w.name} to poll`, () => (w.lines.some((l) => /polling/.test(l)) ? true : w.proc.exitCode !== null ? Promise.reject(new Error(`${w.name} exited: ${w.lines.slice(-5).join(' | ')}`)) : undefined), 900_000);

async function stop(w: Worker, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill(signal);
  await w.exited;
}

/** Start a reproduction with a checkout's own CLI (`reproduce --no-wait --json`); its workflow id. */
async function startRun(checkout: string, prefix = 'physvec'): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, [QUEUE_PREFIX_ENV]: prefix, TEMPORAL_ADDRESS: `127.0.0.1:${PORT}`, PHYSVEC_STATE_DIR: stateDir, PHYSVEC_KB_DIR: path.join(root, 'kb') };
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(checkout, 'cli/main.ts'), 'reproduce', path.join(checkout, TASK_REL), '--model', MODEL, '--no-wait', '--json'], { cwd: checkout, env, maxBuffer: 16 * 1024 * 1024 });
  return (JSON.parse(stdout) as { workflowId: string }).workflowId;
}

interface Row {
  run: string;
  interrupted: string;
  servedBy: string;
  verdict: string;
  unit: string;
  integration: string;
  assertions: string;
  rubric: string;
  numbers: string;
  figure: string;
  same: string;
  drained: string;
}

interface Outcome {
  verdicts: unknown;
  numbers: unknown;
  figure: string;
  row: Omit<Row, 'run' | 'interrupted' | 'same' | 'drained' | 'servedBy'>;
}

type Report = {
  status: string;
  programming: { iteration: number; executable: boolean; unitAccuracy: number | null; integrationAccuracy: number | null; judge_result: { function: string; judge: string }[]; run_functions: { run_function: string; correct_ratio: number }[] }[];
  scientific: { iteration: number; assertions: { case: string; judge: string; observed?: unknown }[]; rubric: { gradeMean: number | null } }[];
  finalRun: { results?: unknown } | null;
  artifacts: { figure?: string };
};

const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(100 * x).toFixed(1)} %`);

async function outcomeOf(result: ReproductionResult): Promise<Outcome> {
  const store = new ArtifactStore(path.join(stateDir, 'artifacts'));
  const ref = (result.report as { jsonRef?: { sha256: string } } | undefined)?.jsonRef;
  if (!ref) throw new Error(`run ${result.workflowId} (${result.status}) wrote no report: ${result.message ?? ''}`);
  const report = await store.getJson<Report>(ref.sha256);
  const lastP = report.programming.at(-1);
  const lastS = report.scientific.at(-1);
  const verdicts = {
    status: report.status,
    programming: report.programming.map((p) => ({ iteration: p.iteration, executable: p.executable, units: p.judge_result.map((u) => `${u.function}:${u.judge}`), integration: p.run_functions.map((r) => `${r.run_function}:${r.correct_ratio}`) })),
    scientific: report.scientific.map((s) => ({ iteration: s.iteration, assertions: s.assertions.map((a) => `${a.case}:${a.judge}`), rubric: s.rubric.gradeMean })),
  };
  const numbers = { final: report.finalRun?.results ?? null, observed: report.scientific.map((s) => s.assertions.map((a) => a.observed ?? null)) };
  const m = result.runMetrics;
  return {
    verdicts,
    numbers,
    figure: report.artifacts.figure ?? '—',
    row: {
      verdict: report.status,
      unit: pct(lastP?.unitAccuracy ?? m.unitAccuracy),
      integration: pct(lastP?.integrationAccuracy ?? m.integrationAccuracy),
      assertions: lastS ? `${lastS.assertions.filter((a) => a.judge === 'correct').length}/${lastS.assertions.length}` : '—',
      rubric: m.rubricGrade === null ? '—' : m.rubricGrade.toFixed(3),
      numbers: sha(numbers).slice(0, 12),
      figure: (report.artifacts.figure ?? '—').slice(0, 12),
    },
  };
}

/** Which workers (hence builds) served the run: the identities on its workflow-task and activity events. */
async function servedBy(client: Client, workflowId: string): Promise<{ builds: Set<string>; text: string }> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const identities = new Set<string>();
  const versions = new Set<string>();
  for (const e of history.events ?? []) {
    const id = e.workflowTaskStartedEventAttributes?.identity ?? e.activityTaskStartedEventAttributes?.identity ?? e.workflowTaskCompletedEventAttributes?.identity;
    if (id) identities.add(id);
    const v = e.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId;
    if (v) versions.add(v);
  }
  const byPid = new Map(workers.map((w) => [String(w.proc.pid), w]));
  const names = [...identities].map((i) => byPid.get(i.split('@')[0]!)?.name ?? `unknown ${i}`);
  const builds = new Set([...identities].map((i) => byPid.get(i.split('@')[0]!)?.build ?? 'unknown'));
  for (const v of versions) builds.add(v);
  return { builds, text: `${[...builds].join('+')} (${[...new Set(names)].join(', ')})` };
}

async function main(): Promise<void> {
  await prepareCheckout();
  const prevBuild = await git(['rev-parse', '--short=12', 'HEAD'], PREV_DIR);
  say(`previous release ${PREV} at ${PREV_DIR} (build ${prevBuild}); this checkout's build ${HEAD_BUILD}; state ${stateDir}; logs ${logDir}`);
  // One knowledge base for every worker (building it costs ~30 s of CPU per state dir).
  if (existsSync(kbDir())) cpSync(kbDir(), path.join(root, 'kb'), { recursive: true });
  const server = await benchServer({ dir: path.join(root, 'server'), port: PORT, uiPort: PORT + 1 });
  const connection = await Connection.connect({ address: `127.0.0.1:${PORT}` });
  const stopAll = onAnyExit(async () => {
    for (const w of workers) await stop(w, 'SIGKILL');
    await connection.close();
    await server.stop();
    if (!KEEP) rmSync(root, { recursive: true, force: true });
  });
  const client = new Client({ connection });
  const current = () => currentBuild(connection as never, 'default');
  const becomesCurrent = (build: string) => waitFor(`build ${build} to become current`, async () => ((await current()) === build ? true : undefined), 300_000);
  const result = (id: string) => client.workflow.getHandle(id).result() as Promise<ReproductionResult>;
  const rows: Row[] = [];

  // The reference, on a deployment of its own (queue prefix): no deploy below touches it.
  const refWorker = startWorker('reference', PREV_DIR, prevBuild, [], REFERENCE_PREFIX);
  let old = startWorker('prev-1', PREV_DIR, prevBuild);
  await Promise.all([polling(refWorker), polling(old)]);
  await becomesCurrent(prevBuild);
  const refId = await startRun(PREV_DIR, REFERENCE_PREFIX);
  const id = await startRun(PREV_DIR);
  say(`reference run ${refId} (prefix ${REFERENCE_PREFIX}) and drilled run ${id} started on ${prevBuild}`);
  const handle = client.workflow.getHandle(id);
  let afterId: string | undefined;
  let head: Worker | undefined;
  for (const [k, stage] of STAGES.entries()) {
    await waitFor(`${id} to reach stage ${stage}`, async () => {
      const d = await handle.describe();
      if (d.status.name !== 'RUNNING') throw new Error(`${id} ended (${d.status.name}) before stage ${stage}`);
      return d.searchAttributes.Stage?.[0] === stage ? true : undefined;
    }, 3_600_000, 300);
    await new Promise((r) => setTimeout(r, 3000)); // activities of the stage under way
    const pending = (await handle.describe()).raw.pendingActivities?.map((a) => a.activityType?.name).join(', ') || 'none';
    say(`${id} in ${stage} (activities in flight: ${pending}): SIGTERM ${old.name} (pid ${old.proc.pid})${head ? '' : ", start this checkout's worker"}, start a --no-promote ${prevBuild} replacement`);
    interruptions.push(`${stage} (${pending})`);
    const stopping = stop(old, 'SIGTERM');
    const starting: Promise<unknown>[] = [];
    if (!head) {
      head = startWorker('head', repoRoot, HEAD_BUILD);
      starting.push(polling(head));
    }
    old = startWorker(`prev-${k + 1}-drain`, PREV_DIR, prevBuild, ['--no-promote']);
    await Promise.all([stopping, polling(old), ...starting]);
    if (!afterId) {
      await becomesCurrent(HEAD_BUILD);
      // After the deploy: a new run, started with this checkout's CLI, must run on this checkout's build.
      afterId = await startRun(repoRoot);
      say(`${head.name} is current; run ${afterId} started after the deploy`);
    }
  }

  const reference = await outcomeOf(await result(refId));
  rows.push({ run: refId, interrupted: '— (undisturbed, own deployment)', servedBy: (await servedBy(client, refId)).text, ...reference.row, same: 'reference', drained: '—' });
  const outcome = await outcomeOf(await result(id));
  const endedAt = Date.now();
  const served = await servedBy(client, id);
  const same = (o: Outcome) => JSON.stringify(o.verdicts) === JSON.stringify(reference.verdicts) && JSON.stringify(o.numbers) === JSON.stringify(reference.numbers) && o.figure === reference.figure;
  const drainer = old;
  const drained = await waitFor(`${drainer.name} to say drained`, () => (drainer.lines.some((l) => /drained/.test(l)) ? `said ${((Date.now() - endedAt) / 1000).toFixed(0)} s after the run ended` : undefined), 240_000).catch(() => 'not said within 240 s');
  rows.push({
    run: id, interrupted: interruptions.map((i) => `SIGTERM in ${i}`).join('; '), servedBy: served.text, ...outcome.row,
    same: same(outcome) ? (served.builds.size === 1 && served.builds.has(prevBuild) ? 'yes' : 'numbers yes, builds NO') : 'NO', drained,
  });
  if (afterId) {
    const after = await outcomeOf(await result(afterId));
    const servedAfter = await servedBy(client, afterId);
    rows.push({ run: afterId, interrupted: '— (started after the deploy)', servedBy: servedAfter.text, ...after.row, same: `${same(after) ? 'yes' : 'NO'}; ${servedAfter.builds.size === 1 && servedAfter.builds.has(HEAD_BUILD) ? 'on HEAD only' : 'NOT on HEAD only'}`, drained: '—' });
  }

  const cols: (keyof Row)[] = ['run', 'interrupted', 'servedBy', 'verdict', 'unit', 'integration', 'assertions', 'rubric', 'numbers', 'figure', 'same', 'drained'];
  const titles = ['run', 'interrupted at', 'served by build (workers)', 'verdict', 'unit', 'integration', 'assertions', 'rubric', 'numbers sha', 'figure sha', 'same as undisturbed', 'old build drained'];
  const lines = [`| ${titles.join(' | ')} |`, `|${titles.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${cols.map((c) => r[c]).join(' | ')} |`)];
  console.log(`\ndrill-deploy: previous release ${PREV} (build ${prevBuild}) → this checkout (build ${HEAD_BUILD}); ${((Date.now() - t0) / 60_000).toFixed(1)} min, load ${os.loadavg()[0]!.toFixed(1)}\n`);
  console.log(lines.join('\n'));
  writeFileSync(path.join(logDir, 'table.md'), `${lines.join('\n')}\n`);
  const failed = rows.filter((r) => (r.same !== 'reference' && !/^yes/.test(r.same)) || /NOT|NO$/.test(r.same));
  await stopAll();
  if (failed.length) {
    console.log(`\n${failed.length} run(s) did not end as the undisturbed run did (logs kept only with --keep)`);
    process.exitCode = 1;
  }
}

await main();
