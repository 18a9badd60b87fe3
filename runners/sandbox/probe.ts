// What this host lets us do, found out once per process by trying it: a protection that merely
// exists on PATH but fails here (no user namespaces, no CAP_SYS_ADMIN) counts as absent.
import { execFile } from 'node:child_process';
import { findExecutable } from '../languages/find-executable.js';

export interface IsolationProbe {
  root: boolean;
  bwrap: { path: string | null; works: boolean; version: string | null; supportsSize: boolean; error: string | null };
  setpriv: string | null;
  prlimit: string | null;
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

async function runProbe(): Promise<IsolationProbe> {
  const root = process.getuid?.() === 0;
  const bwrapPath = findExecutable('bwrap', undefined, `${process.env.PATH ?? ''}:${SYSTEM_PATH}`);
  const setpriv = findExecutable('setpriv', undefined, `${process.env.PATH ?? ''}:${SYSTEM_PATH}`);
  const prlimit = findExecutable('prlimit', undefined, `${process.env.PATH ?? ''}:${SYSTEM_PATH}`);
  const bwrap: IsolationProbe['bwrap'] = { path: bwrapPath, works: false, version: null, supportsSize: false, error: null };
  if (!bwrapPath) {
    bwrap.error = 'bwrap (bubblewrap) is not installed';
  } else {
    const version = await run(bwrapPath, ['--version']);
    bwrap.version = /bubblewrap\s+(\S+)/.exec(version.out)?.[1] ?? null;
    bwrap.supportsSize = (await run(bwrapPath, ['--help'])).out.includes('--size');
    const inner = root && setpriv ? [setpriv, `--reuid=${PROBE_UID}`, `--regid=${PROBE_UID}`, '--clear-groups', '--', 'true'] : ['true'];
    const trial = await run(bwrapPath, [
      '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp',
      ...namespaceFlags(root), '--die-with-parent', '--new-session', '--', ...inner,
    ]);
    bwrap.works = trial.ok;
    if (!trial.ok) bwrap.error = `bwrap is installed but cannot create a sandbox here: ${trial.out.split('\n')[0] || 'it failed'}`;
  }
  return { root, bwrap, setpriv, prlimit };
}
