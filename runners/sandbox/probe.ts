// What this host lets us do, found out once per process by trying it: a protection that merely
// exists on PATH but fails here (no user namespaces, no CAP_SYS_ADMIN) counts as absent.
import { execFile, spawn } from 'node:child_process';
import { findExecutable } from '../../lib/toolchains/find-executable.js';
import { probeCgroups, RunCgroup, type CgroupProbe } from './cgroup.js';
import { duBinary } from './disk-usage.js';
import { noUserNamespaceFilter, noUserNamespaceFilterSupported } from './seccomp.js';

export interface IsolationProbe {
  root: boolean;
  bwrap: { path: string | null; works: boolean; version: string | null; supportsSize: boolean; error: string | null };
  setpriv: string | null;
  prlimit: string | null;
  /** Run cgroups for memory and pids (needs root, or a delegated cgroup). */
  cgroup: CgroupProbe;
  /** The no-user-namespace seccomp filter loads under bwrap and does its job; else why not. */
  seccomp: { works: boolean; error: string | null };
  /** For the disk watchdog. */
  du: string | null;
}

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** A uid no one uses, to check that dropping privileges inside bwrap works. */
const PROBE_UID = 64_999;

let cached: Promise<IsolationProbe> | undefined;

export function probeIsolation(): Promise<IsolationProbe> {
  cached ??= runProbe();
  return cached;
}

function run(exe: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    execFile(exe, args, { timeout: 15_000, env: { PATH: SYSTEM_PATH } }, (err, stdout, stderr) => {
      resolve({ ok: !err, out: `${stdout}${stderr}`.trim() });
    });
  });
}

/** The namespace flags a real run uses: as root we keep the host user namespace so setpriv can switch uid. */
export function namespaceFlags(root: boolean): string[] {
  return root
    ? ['--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try']
    : ['--unshare-all'];
}

/** Run with the seccomp filter on fd 3, as a real run passes it to bwrap. */
function runWithFilter(exe: string, args: string[], filter: Buffer): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(exe, args, { env: { PATH: SYSTEM_PATH }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    (child.stdio[3] as NodeJS.WritableStream).on('error', () => undefined);
    (child.stdio[3] as NodeJS.WritableStream).end(filter);
    child.once('error', (err) => resolve({ ok: false, out: err.message }));
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, out: out.trim() });
    });
  });
}

const SANDBOX_TRIAL = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];

async function probeSeccomp(bwrap: string, root: boolean, helpText: string, unshareBin: string | null): Promise<IsolationProbe['seccomp']> {
  if (!helpText.includes('--seccomp')) return { works: false, error: 'this bwrap has no --seccomp option' };
  if (!noUserNamespaceFilterSupported()) return { works: false, error: `no seccomp filter is written for ${process.arch}` };
  const filter = noUserNamespaceFilter();
  const base = [...SANDBOX_TRIAL, ...namespaceFlags(root), '--die-with-parent', '--seccomp', '3', '--'];
  const plain = await runWithFilter(bwrap, [...base, 'true'], filter);
  if (!plain.ok) return { works: false, error: `bwrap could not load the seccomp filter: ${plain.out.split('\n')[0] || 'it failed'}` };
  // The filter must actually refuse a user namespace (skipped where util-linux's unshare is absent).
  if (unshareBin) {
    const userns = await runWithFilter(bwrap, [...base, unshareBin, '--user', 'true'], filter);
    if (userns.ok) return { works: false, error: 'the seccomp filter loaded but a user namespace could still be made' };
  }
  return { works: true, error: null };
}

/** A cgroup parent that exists is not enough: make one run cgroup with limits and remove it. */
async function trialCgroup(found: CgroupProbe): Promise<CgroupProbe> {
  if (!found.ok) return found;
  try {
    await RunCgroup.create(found.host, `probe-${process.pid}-${Date.now()}`, { memoryBytes: 64 * 1024 * 1024, maxProcesses: 16 }).remove();
    return found;
  } catch (err) {
    return { ok: false, error: `a run cgroup could not be set up (${(err as Error).message})` };
  }
}

async function runProbe(): Promise<IsolationProbe> {
  const root = process.getuid?.() === 0;
  const bwrapPath = findExecutable('bwrap', undefined, `${process.env.PATH ?? ''}:${SYSTEM_PATH}`);
  const setpriv = findExecutable('setpriv', undefined, `${process.env.PATH ?? ''}:${SYSTEM_PATH}`);
  const prlimit = findExecutable('prlimit', undefined, `${process.env.PATH ?? ''}:${SYSTEM_PATH}`);
  const unshareBin = findExecutable('unshare', undefined, SYSTEM_PATH);
  const bwrap: IsolationProbe['bwrap'] = { path: bwrapPath, works: false, version: null, supportsSize: false, error: null };
  let seccomp: IsolationProbe['seccomp'] = { works: false, error: 'bwrap is unavailable, and with it the seccomp filter' };
  if (!bwrapPath) {
    bwrap.error = 'bwrap (bubblewrap) is not installed';
  } else {
    const version = await run(bwrapPath, ['--version']);
    bwrap.version = /bubblewrap\s+(\S+)/.exec(version.out)?.[1] ?? null;
    const help = (await run(bwrapPath, ['--help'])).out;
    bwrap.supportsSize = help.includes('--size');
    const inner = root && setpriv ? [setpriv, `--reuid=${PROBE_UID}`, `--regid=${PROBE_UID}`, '--clear-groups', '--', 'true'] : ['true'];
    const trial = await run(bwrapPath, [
      ...SANDBOX_TRIAL,
      ...namespaceFlags(root), '--die-with-parent', '--new-session', '--', ...inner,
    ]);
    bwrap.works = trial.ok;
    if (!trial.ok) bwrap.error = `bwrap is installed but cannot create a sandbox here: ${trial.out.split('\n')[0] || 'it failed'}`;
    else seccomp = await probeSeccomp(bwrapPath, root, help, unshareBin);
  }
  const cgroup: CgroupProbe = root || process.env.PHYSVEC_SANDBOX_CGROUP_PARENT
    ? await trialCgroup(probeCgroups())
    : { ok: false, error: 'the worker is not root, so it cannot make cgroups (set PHYSVEC_SANDBOX_CGROUP_PARENT to a cgroup delegated to it)' };
  return { root, bwrap, setpriv, prlimit, cgroup, seccomp, du: duBinary() };
}
