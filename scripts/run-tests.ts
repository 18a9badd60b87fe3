// The test suite. One real Temporal dev server (unless TEMPORAL_ADDRESS points at one already), one
// throw-away state directory with the knowledge base built once, one workflow bundle built once; then
// the test files run in parallel, one node test process per file, as many at a time as there are
// cores. Each file gets its own task-queue prefix (PHYSVEC_QUEUE_PREFIX), so its workers and the CLI
// processes it starts never take another file's tasks, and its own state dir.
//
//   node --import tsx scripts/run-tests.ts [filters…]            the default tier (no *.drill.test.ts)
//   node --import tsx scripts/run-tests.ts --drills [filters…]   the drills only (resume, infrastructure, deploy, outages)
//   node --import tsx scripts/run-tests.ts --all [filters…]      both
//   --concurrency N (or PHYSVEC_TEST_CONCURRENCY)                 test processes at a time (default: cores)
//   --waiting-streams N                                           extra streams for files that mostly wait (default 1)
//
// A file whose header says `run-tests: mostly waits` (a provider outage, sleeping sandbox runs, timers)
// uses a few percent of a core for minutes; on two cores it would hold one of the two streams idle. Such
// files also run in extra streams beside the CPU-bound ones, so the suite's wall time is its CPU time.
// The mark is measured, not guessed: the host's CPU share while the file runs alone (see the README).
//
// Output: each file's spec report when it ends (never interleaved), then per-file times, the slowest
// ten, the wall time, and the totals in node's own closing format (ℹ tests/pass/fail …).
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { Command, Option } from 'commander';
import { repoRoot } from '../lib/paths.js';
import { startDevServer, stopDevServer } from '../lib/temporal/dev-server.js';
import { QUEUE_PREFIX_ENV } from '../lib/temporal/task-queues.js';
import { WORKFLOW_BUNDLE_ENV } from '../workers/workflow-bundle.js';

const DRILL_SUFFIX = '.drill.test.ts';
/** A file that runs longer than this is killed and counted failed: a hung test must not hang CI. Drills run long by design. */
const fileTimeoutMs = (file: string) => (file.endsWith(DRILL_SUFFIX) ? 75 : 30) * 60_000;
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const TIMES_CACHE = path.join(repoRoot, '.stamps', 'test-times.json');
const SEED_TIMES = path.join(repoRoot, 'tests', 'file-times.json');

const cli = new Command('run-tests')
  .description('Run physvec\'s test suite on a real Temporal dev server, test files in parallel')
  .argument('[filters...]', 'run only files whose path contains one of these')
  .addOption(new Option('--drills', 'run the drill tier only (*.drill.test.ts)').conflicts('all'))
  .option('--all', 'run the default tier and the drills')
  .option('--concurrency <n>', 'test processes at a time', process.env.PHYSVEC_TEST_CONCURRENCY ?? String(os.availableParallelism()))
  .option('--waiting-streams <n>', 'extra test processes at a time for files marked "run-tests: mostly waits"', '1')
  .parse();
const opts = cli.opts<{ drills?: boolean; all?: boolean; concurrency: string; waitingStreams: string }>();
const concurrency = Number(opts.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1) cli.error(`--concurrency: expected a positive integer, got "${opts.concurrency}"`);
const waitingStreams = Number(opts.waitingStreams);
if (!Number.isInteger(waitingStreams) || waitingStreams < 0) cli.error(`--waiting-streams: expected 0 or a positive integer, got "${opts.waitingStreams}"`);
const filters = cli.args;

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'fixtures' && name !== 'helpers') out.push(...findTests(p));
    } else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out.sort();
}

const inTier = (f: string) => (opts.all ? true : opts.drills ? f.endsWith(DRILL_SUFFIX) : !f.endsWith(DRILL_SUFFIX));
const files = findTests(path.join(repoRoot, 'tests'))
  .filter(inTier)
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .map((f) => path.relative(repoRoot, f));
if (files.length === 0) {
  console.error(`run-tests: no test file matches ${filters.length ? filters.map((f) => `"${f}"`).join(', ') : 'this tier'}${opts.drills ? ' among the drills (*.drill.test.ts)' : ''}`);
  process.exit(1);
}

function readTimes(file: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}
// Longest first, so the last file to start is a short one (times of the last run, else the seed).
const known = { ...readTimes(SEED_TIMES), ...readTimes(TIMES_CACHE) };
const order = [...files].sort((a, b) => (known[b] ?? 60_000) - (known[a] ?? 60_000));
const WAITS_MARK = /^\/\/.*\brun-tests: mostly waits\b/m;
const mostlyWaits = (file: string) => WAITS_MARK.test(readFileSync(path.join(repoRoot, file), 'utf8').slice(0, 4000));
const waiting = order.filter(mostlyWaits);
const busyQueue = order.filter((f) => !waiting.includes(f));
const waitingQueue = [...waiting];

const t0 = performance.now();
const cpuAtStart = os.cpus();
const env: NodeJS.ProcessEnv = { ...process.env };
let serverDir: string | undefined;
const setup: Promise<unknown>[] = [];
if (!env.TEMPORAL_ADDRESS) {
  serverDir = mkdtempSync(path.join(os.tmpdir(), 'physvec-test-server-'));
  const port = Number(env.PHYSVEC_TEST_TEMPORAL_PORT ?? 17233);
  const uiPort = port + 1000;
  setup.push(
    startDevServer({ dir: serverDir, port, uiPort }).then((info) => {
      console.log(`# test Temporal dev server at ${info.address} (UI ${info.uiUrl}), ready in ${info.readyMs} ms`);
      env.TEMPORAL_ADDRESS = info.address;
      env.PHYSVEC_UI_PORT = String(uiPort);
      env.PHYSVEC_TEST_SERVER_DIR = serverDir;
    }),
  );
}
// A test file's workers warm the default toolchain only (a worker warms all four by default, ~5 s of
// CPU each time: with ~50 files starting workers that is minutes of the suite's two cores); a test
// that needs another toolchain warm sets PHYSVEC_SANDBOX_WARM_PROFILES itself.
env.PHYSVEC_SANDBOX_WARM_PROFILES ??= 'tenpy';
// The suite's own directory: the knowledge base and the workflow bundle all files share. Each file
// gets a state dir of its own beneath it (artifacts, results store, sandbox work dirs).
const ownSuiteDir = !env.PHYSVEC_STATE_DIR;
const suiteDir = env.PHYSVEC_STATE_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'physvec-test-state-'));
// The files' temp dirs (checkpoint stores of hundreds of MiB, spools, the attempt registry) go under
// the suite's directory, which a passing suite removes: repeated runs never fill the host's /tmp, and
// one suite's leftovers (a killed worker's attempt records) are never seen by the next one.
// As the host's /tmp is: reachable by every uid (a sandbox's run uid included: mkdtemp made the
// suite's directory 0700) and world-writable with the sticky bit.
env.TMPDIR = path.join(suiteDir, 'tmp');
mkdirSync(env.TMPDIR, { recursive: true });
if (ownSuiteDir) chmodSync(suiteDir, 0o755);
chmodSync(env.TMPDIR, 0o1777);
env.PHYSVEC_KB_DIR ??= path.join(suiteDir, 'kb');
// The knowledge base, once, before any worker would start building it in a child of its own: from
// the copy bootstrap built when there is one (then `kb build` only checks it is current).
const builtKb = path.join(repoRoot, 'data', 'state', 'kb');
if (!existsSync(env.PHYSVEC_KB_DIR) && existsSync(path.join(builtKb, 'manifest.json'))) cpSync(builtKb, env.PHYSVEC_KB_DIR, { recursive: true });
// Not fatal: a worker then builds it on first use, and the KB's own tests say what is wrong.
setup.push(
  timed('knowledge base', run(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'kb', 'build'], { ...env, PHYSVEC_STATE_DIR: suiteDir })).catch((err: Error) =>
    console.log(`# WARNING: knowledge base not prebuilt (${err.message.split('\n')[0]}); workers build it on first use`),
  ),
);
// The workflow bundle, once: every worker of every file loads this file instead of bundling (~30 s each).
if (!env[WORKFLOW_BUNDLE_ENV]) {
  const bundleFile = path.join(suiteDir, 'workflow-bundle.js');
  env[WORKFLOW_BUNDLE_ENV] = bundleFile;
  setup.push(timed('workflow bundle', run(process.execPath, ['--import', 'tsx', 'scripts/build-workflow-bundle.ts', bundleFile], { ...env })));
}
const stopServer = async () => {
  if (serverDir && env.TEMPORAL_ADDRESS) await stopDevServer({ dir: serverDir, port: Number(env.TEMPORAL_ADDRESS.split(':').pop()) });
};
process.on('SIGINT', () => void stopServer().finally(() => process.exit(130)));
process.on('SIGTERM', () => void stopServer().finally(() => process.exit(143)));

try {
  await Promise.all(setup);
} catch (err) {
  console.error(`run-tests: set-up failed: ${(err as Error).message}`);
  await stopServer();
  process.exit(1);
}
const setupMs = performance.now() - t0;
const extraStreams = waiting.length ? waitingStreams : 0;
console.log(
  `# set-up ${(setupMs / 1000).toFixed(1)} s; ${files.length} files, ${Math.min(concurrency, files.length)} at a time` +
    (extraStreams ? ` (+${extraStreams} for the ${waiting.length} that mostly wait: ${waiting.map((f) => path.basename(f, '.test.ts')).join(', ')})` : ''),
);

interface FileResult {
  file: string;
  ms: number;
  /**
   * CPU seconds of the file's process and the descendants it reaped (GNU time): the test and its
   * in-process workers; sandbox runs, reaped inside their own PID namespaces, are mostly not in it.
   * Null without GNU time.
   */
  cpuS: number | null;
  code: number | null;
  counts: Record<string, number>;
}
const COUNTED = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'] as const;

function runFile(file: string): Promise<FileResult> {
  const start = performance.now();
  const name = `${path.basename(file, '.test.ts').replace(/[^a-z0-9]+/gi, '-')}-${randomUUID().slice(0, 8)}`;
  const fileEnv = { ...env, [QUEUE_PREFIX_ENV]: `test-${name}`, PHYSVEC_STATE_DIR: path.join(suiteDir, 'files', name) };
  // Where the suite's CPU goes (on 2 cores the wall time is CPU-bound): GNU time, when the host has it.
  const cpuFile = GNU_TIME ? path.join(suiteDir, `${name}.cpu`) : null;
  // The file runs as the process itself, not under `node --test` (which would start a second node
  // and load tsx again for every file): node:test runs a file's tests when it is executed and exits
  // non-zero when one fails.
  const argv = [process.execPath, '--import', 'tsx', '--test-reporter=spec', file];
  return new Promise((resolve) => {
    const child = spawn(cpuFile ? GNU_TIME! : argv[0]!, cpuFile ? ['-o', cpuFile, '-f', '%U %S', ...argv] : argv.slice(1), {
      cwd: repoRoot,
      env: fileEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      out += `\n# run-tests: ${file} still running after ${fileTimeoutMs(file) / 60_000} min: killed\n`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, fileTimeoutMs(file));
    child.on('close', (code) => {
      clearTimeout(timer);
      // What the file left running in its group (a worker it did not stop) would poll and use CPU for
      // the rest of the suite.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* nothing left */
      }
      const ms = performance.now() - start;
      const counts: Record<string, number> = {};
      for (const key of COUNTED) {
        const m = new RegExp(`^ℹ ${key} (\\d+)$`, 'm').exec(out);
        counts[key] = m ? Number(m[1]) : 0;
      }
      // A file that died before its report counts as one failed test, never as nothing.
      if (code !== 0 && counts.fail === 0) {
        counts.fail = 1;
        counts.tests += 1;
      }
      const cpuS = cpuFile ? cpuSeconds(cpuFile) : null;
      console.log(`\n# ── ${file} (${(ms / 1000).toFixed(1)} s${cpuS === null ? '' : `, CPU ${cpuS.toFixed(0)} s`}, exit ${code}) ──`);
      process.stdout.write(out.replace(/^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) .*\n?/gm, ''));
      resolve({ file, ms, cpuS, code, counts });
    });
  });
}

const results: FileResult[] = [];
// The CPU-bound streams take the busy files, then help with the waiting ones; the extra streams take
// only waiting ones, so at most `concurrency` busy files ever run at once.
const busyStream = async () => {
  for (let f = busyQueue.shift() ?? waitingQueue.shift(); f; f = busyQueue.shift() ?? waitingQueue.shift()) results.push(await runFile(f));
};
const waitingStream = async () => {
  for (let f = waitingQueue.shift(); f; f = waitingQueue.shift()) results.push(await runFile(f));
};
await Promise.all([
  ...Array.from({ length: Math.min(concurrency, files.length) }, busyStream),
  ...Array.from({ length: extraStreams }, waitingStream),
]);
await stopServer();

const wallMs = performance.now() - t0;
const byTime = [...results].sort((a, b) => b.ms - a.ms);
const row = (r: FileResult) => `#   ${(r.ms / 1000).toFixed(1).padStart(7)} ${r.cpuS === null ? '' : r.cpuS.toFixed(0).padStart(6)}  ${r.file}${r.code === 0 ? '' : '  FAILED'}`;
console.log(`\n# per-file times (s): wall${GNU_TIME ? ', CPU of the test process and what it reaped (sandbox runs mostly not)' : ''}`);
for (const r of [...results].sort((a, b) => a.file.localeCompare(b.file))) console.log(row(r));
console.log('# slowest 10:');
for (const r of byTime.slice(0, 10)) console.log(row(r));
const fileSum = results.reduce((s, r) => s + r.ms, 0);
const cpuSum = results.reduce((s, r) => s + (r.cpuS ?? 0), 0);
const busy = hostCpuBusy(cpuAtStart);
console.log(`# wall ${(wallMs / 60_000).toFixed(1)} min (set-up ${(setupMs / 1000).toFixed(0)} s; files ${(fileSum / 60_000).toFixed(1)} min summed${GNU_TIME ? `, CPU ${(cpuSum / 60).toFixed(1)} min` : ''}; ${concurrency}${extraStreams ? ` (+${extraStreams} waiting)` : ''} at a time on ${os.availableParallelism()} cores, host CPU ${busy} busy, load average at the end ${os.loadavg()[0]!.toFixed(1)}); tier: ${opts.all ? 'all' : opts.drills ? 'drills' : 'default'}`);
const failed = results.filter((r) => r.code !== 0);
if (failed.length) console.log(`# failed files: ${failed.map((r) => r.file).join(', ')}; their state dirs are kept under ${suiteDir}/files`);
else {
  if (ownSuiteDir) rmSync(suiteDir, { recursive: true, force: true });
  if (serverDir) rmSync(serverDir, { recursive: true, force: true });
}
for (const key of COUNTED) console.log(`ℹ ${key} ${results.reduce((s, r) => s + (r.counts[key] ?? 0), 0)}`);
console.log(`ℹ duration_ms ${wallMs.toFixed(0)}`);

if (process.env.PHYSVEC_TEST_SUMMARY) {
  // For a caller that runs several tiers and reports them together (.ci/run).
  const totals = Object.fromEntries(COUNTED.map((k) => [k, results.reduce((s, r) => s + (r.counts[k] ?? 0), 0)]));
  writeFileSync(process.env.PHYSVEC_TEST_SUMMARY, JSON.stringify({ tier: opts.all ? 'all' : opts.drills ? 'drills' : 'default', wallMs, ...totals }));
}
if (filters.length === 0) {
  mkdirSync(path.dirname(TIMES_CACHE), { recursive: true });
  writeFileSync(TIMES_CACHE, JSON.stringify({ ...readTimes(TIMES_CACHE), ...Object.fromEntries(results.map((r) => [r.file, Math.round(r.ms)])) }, null, 1));
}
process.exit(failed.length ? 1 : 0);

function run(cmd: string, args: string[], childEnv: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: repoRoot, env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${args.slice(2).join(' ')} exited ${code}: ${err.slice(-2000)}`))));
  });
}

function cpuSeconds(file: string): number | null {
  try {
    // GNU time's report is the last line (a killed child adds a "Command terminated" line before it).
    const [user, sys] = readFileSync(file, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    return Number.isFinite(user) && Number.isFinite(sys) ? user! + sys! : null;
  } catch {
    return null;
  }
}

async function timed(what: string, p: Promise<void>): Promise<void> {
  const s = performance.now();
  await p;
  console.log(`# ${what} ready in ${((performance.now() - s) / 1000).toFixed(1)} s`);
}

/** The share of the host's CPU time that was busy since `start` (everyone's: other jobs included). */
function hostCpuBusy(start: os.CpuInfo[]): string {
  let busy = 0;
  let total = 0;
  for (const [i, now] of os.cpus().entries()) {
    const was = start[i]?.times;
    if (!was) continue;
    const d = (k: keyof os.CpuInfo['times']) => now.times[k] - was[k];
    const all = d('user') + d('nice') + d('sys') + d('idle') + d('irq');
    total += all;
    busy += all - d('idle');
  }
  return total > 0 ? `${Math.round((100 * busy) / total)} %` : 'unknown';
}
