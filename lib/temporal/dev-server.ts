// Start/stop/inspect the local Temporal dev server (the official CLI from the venv).
// Readiness is `temporal operator cluster health`, never a sleep.
import { spawn } from 'node:child_process';
import { promises as fs, openSync, existsSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { temporalBin, stateDir } from '../paths.js';
import { DEV_SERVER, devServerArgs } from '../../temporal-config/server.js';

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
  await fs.writeFile(r.pidFile, String(pid));
  await waitHealthy(r.address, DEV_SERVER.readinessTimeoutMs, () => pidAlive(pid));
  return { pid, address: r.address, uiUrl: r.uiUrl, dbFile: r.dbFile, logFile: r.logFile, alreadyRunning: false, readyMs: Date.now() - t0 };
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
