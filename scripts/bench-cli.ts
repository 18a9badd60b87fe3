// bench-cli: how fast the read-only verbs answer (issue 24.6; targets at idle: --version/--help ≤ 0.5 s,
// status/runs ≤ 1 s), side by side with the `temporal` CLI listing the same workflows, at idle and
// under a CPU hog this script starts and stops itself.
//
//   node --import tsx scripts/bench-cli.ts [--repeat 5] [--hog 8] [--port 17351]
//
// A throw-away dev server (port --port) holds one running workflow (no worker: status answers without
// its query) and one terminated one. Prints the median and max wall time of each command line, run
// as a user runs it (`node bin/physvec.js …`, a new process each time), with the load average.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../lib/paths.js';
import { answerHelp, benchServer } from './bench-support.js';
import { startCpuHog } from './cpu-hog.js';

answerHelp(import.meta.url);
const flag = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const repeat = flag('--repeat', 5);
const hog = flag('--hog', 8);
const port = flag('--port', 17351);

function timeOnce(argv: string[], env: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${String(r.stderr).trim().split('\n')[0]}`);
  return ms;
}

function row(label: string, argv: string[], env: NodeJS.ProcessEnv): string {
  const times = Array.from({ length: repeat }, () => timeOnce(argv, env)).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  return `${label.padEnd(34)} median ${(median / 1000).toFixed(2)} s   max ${(times.at(-1)! / 1000).toFixed(2)} s`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-bench-cli-'));
  const { info, stop } = await benchServer({ dir, port, uiPort: port + 1000 });
  const env = { ...process.env, TEMPORAL_ADDRESS: info.address, PHYSVEC_STATE_DIR: path.join(dir, 'state') };
  const { connectClient } = await import('../lib/temporal/connection.js');
  process.env.TEMPORAL_ADDRESS = info.address;
  const { client, connection } = await connectClient();
  const running = `bench-cli-running-${Date.now()}`;
  const closed = `bench-cli-closed-${Date.now()}`;
  for (const id of [running, closed]) await client.workflow.start('reproduction', { taskQueue: 'bench-cli-nobody', workflowId: id, args: [] });
  await client.workflow.getHandle(closed).terminate('bench-cli');
  await connection.close();

  const physvec = (...a: string[]) => [process.execPath, path.join(repoRoot, 'bin/physvec.js'), ...a];
  const cases: [string, string[]][] = [
    ['node (no code), reference', [process.execPath, '-e', '']],
    ['temporal workflow list, reference', [path.join(repoRoot, '.venv/bin/temporal'), 'workflow', 'list', '--address', info.address, '--limit', '20']],
    ['physvec --version', physvec('--version')],
    ['physvec --help', physvec('--help')],
    ['physvec reproduce --help', physvec('reproduce', '--help')],
    ['physvec status <running id>', physvec('status', running)],
    ['physvec status <closed id>', physvec('status', closed)],
    ['physvec runs', physvec('runs')],
  ];
  const table = (when: string) => {
    console.log(`\n${when}: load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.availableParallelism()} cores, ${repeat} runs each`);
    for (const [label, argv] of cases) console.log(row(label, argv, env));
  };
  table('idle (as the host is)');
  if (hog > 0) {
    const stopHog = startCpuHog(hog);
    await new Promise((r) => setTimeout(r, 3000));
    table(`under a CPU hog of ${hog} busy processes`);
    await stopHog();
  }
  await stop();
}

await main();
