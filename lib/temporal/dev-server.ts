// Start/stop/inspect the local Temporal dev server (the official CLI from the venv).
// Readiness is `temporal operator cluster health`, never a sleep.
import { spawn } from 'node:child_process';
import { promises as fs, openSync, existsSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { temporalBin, stateDir } from '../paths.js';
import { DEV_SERVER, devServerArgs } from '../../temporal-config/server.js';
import { RETIRED_SEARCH_ATTRIBUTES, SEARCH_ATTRIBUTE_FLAGS } from '../../temporal-config/search-attributes.js';
import { raiseProcessPriority, workerNiceSetting } from '../process-priority.js';

export interface DevServerOptions {
  dir?: string; // where temporal.db, the pid file and the log live
  port?: number;
  uiPort?: number;
  host?: string;
}

export interface DevServerInfo {
  pid: number;
  address: string;
  uiUrl: string;
  dbFile: string;
  logFile: string;
}

function resolved(opts: DevServerOptions) {
  const dir = opts.dir ?? stateDir();
  const host = opts.host ?? DEV_SERVER.host;
  const port = opts.port ?? Number(process.env.PHYSVEC_TEMPORAL_PORT ?? DEV_SERVER.port);
  const uiPort = opts.uiPort ?? Number(process.env.PHYSVEC_UI_PORT ?? DEV_SERVER.uiPort);
  return {
    dir, host, port, uiPort,
    address: `${host}:${port}`,
    uiUrl: `http://${host}:${uiPort}`,
    dbFile: path.join(dir, DEV_SERVER.dbFileName),
    pidFile: path.join(dir, 'temporal-server.pid'),
    logFile: path.join(dir, 'temporal-server.log'),
  };
}

export async function isHealthy(address: string): Promise<boolean> {
  if (!existsSync(temporalBin)) return false;
  const r = await execa(temporalBin, ['operator', 'cluster', 'health', '--address', address], { reject: false, timeout: 10_000 });
  return r.exitCode === 0 && /SERVING/i.test(r.stdout);
}

export async function waitHealthy(address: string, timeoutMs: number = DEV_SERVER.readinessTimeoutMs, isAlive?: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let delay = 100;
  while (Date.now() < deadline) {
    if (await isHealthy(address)) return;
    if (isAlive && !isAlive()) throw new Error(`the Temporal dev server exited before it became ready (see its log)`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 1000);
  }
  throw new Error(`the Temporal server at ${address} did not report SERVING within ${timeoutMs} ms`);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Start the dev server detached (it outlives this process) unless one already answers at the address. */
export async function startDevServer(opts: DevServerOptions = {}): Promise<DevServerInfo & { alreadyRunning: boolean; readyMs: number }> {
  const r = resolved(opts);
  const t0 = Date.now();
  if (await isHealthy(r.address)) {
    const pid = Number(await fs.readFile(r.pidFile, 'utf8').catch(() => '0'));
    return { pid, address: r.address, uiUrl: r.uiUrl, dbFile: r.dbFile, logFile: r.logFile, alreadyRunning: true, readyMs: 0 };
  }
  if (!existsSync(temporalBin)) {
    throw new Error(`the Temporal CLI is not installed at ${temporalBin}; run \`bash scripts/bootstrap.sh\` (or set PHYSVEC_TEMPORAL_BIN)`);
  }
  await fs.mkdir(r.dir, { recursive: true });
  const log = openSync(r.logFile, 'a');
  const child = spawn(temporalBin, devServerArgs({ dbFile: r.dbFile, port: r.port, uiPort: r.uiPort, host: r.host }), {
    detached: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  const pid = child.pid!;
  // The server is infrastructure like the workers: on a shared host it runs at their priority, or
  // its timers and heartbeat handling would be as late as a starved worker's (lib/process-priority.ts).
  const nice = workerNiceSetting();
  if (nice !== null) raiseProcessPriority(nice, pid);
  await fs.writeFile(r.pidFile, String(pid));
  await waitHealthy(r.address, DEV_SERVER.readinessTimeoutMs, () => pidAlive(pid));
  await migrateSearchAttributes(r.address);
  return { pid, address: r.address, uiUrl: r.uiUrl, dbFile: r.dbFile, logFile: r.logFile, alreadyRunning: false, readyMs: Date.now() - t0 };
}

/**
 * `start-dev --search-attribute` registers attributes only when it creates the database: a server
 * started on an older `temporal.db` keeps the old set. So after start, add what is missing. Changes
 * are additive (issue 25.5): what this version retired (`Status`, which hid the UI's own status
 * column) stays registered, since a worker of an older build may still write it and could not start
 * runs without it (rollback); `retire: true` (`physvec server retire-attributes`) removes it once no
 * older build runs. Returns what changed.
 */
export async function migrateSearchAttributes(address: string, namespace: string = DEV_SERVER.namespace, opts: { retire?: boolean } = {}): Promise<{ added: string[]; removed: string[] }> {
  const conn = ['--address', address, '--namespace', namespace];
  const listed = await execa(temporalBin, ['operator', 'search-attribute', 'list', ...conn, '-o', 'json'], { reject: false, timeout: 15_000 });
  if (listed.exitCode !== 0) throw new Error(`could not list the search attributes of ${address}: ${listed.stderr.trim().split('\n').pop()}`);
  const custom = Object.keys((JSON.parse(listed.stdout) as { customAttributes?: Record<string, string> }).customAttributes ?? {});
  const missing = SEARCH_ATTRIBUTE_FLAGS.map((f) => f.split('=') as [string, string]).filter(([name]) => !custom.includes(name));
  const retired = opts.retire ? RETIRED_SEARCH_ATTRIBUTES.filter((name) => custom.includes(name)) : [];
  if (missing.length) {
    const args = missing.flatMap(([name, type]) => ['--name', name, '--type', type]);
    const r = await execa(temporalBin, ['operator', 'search-attribute', 'create', ...args, ...conn], { reject: false, timeout: 15_000 });
    if (r.exitCode !== 0) throw new Error(`could not add the search attributes ${missing.map(([n]) => n).join(', ')} to ${address}: ${r.stderr.trim().split('\n').pop()}`);
  }
  if (retired.length) {
    const r = await execa(temporalBin, ['operator', 'search-attribute', 'remove', ...retired.flatMap((n) => ['--name', n]), '--yes', ...conn], { reject: false, timeout: 15_000 });
    if (r.exitCode !== 0) throw new Error(`could not remove the retired search attributes ${retired.join(', ')} from ${address}: ${r.stderr.trim().split('\n').pop()}`);
  }
  return { added: missing.map(([n]) => n), removed: retired };
}

export async function stopDevServer(opts: DevServerOptions = {}): Promise<{ stopped: boolean; pid?: number }> {
  const r = resolved(opts);
  const pid = Number(await fs.readFile(r.pidFile, 'utf8').catch(() => '0'));
  if (!pid || !pidAlive(pid)) return { stopped: false };
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (pidAlive(pid) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 100));
  if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
  await fs.rm(r.pidFile, { force: true });
  return { stopped: true, pid };
}

export async function devServerStatus(opts: DevServerOptions = {}): Promise<{ healthy: boolean; address: string; uiUrl: string; dbFile: string; pid?: number }> {
  const r = resolved(opts);
  const pid = Number(await fs.readFile(r.pidFile, 'utf8').catch(() => '0')) || undefined;
  return { healthy: await isHealthy(r.address), address: r.address, uiUrl: r.uiUrl, dbFile: r.dbFile, pid };
}
