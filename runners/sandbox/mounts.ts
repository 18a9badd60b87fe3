// The filesystem a bwrap'd script sees: the host read-only, the user's home and physvec's state
// directory (artifacts, other runs) hidden, fresh /tmp and /dev/shm, and only its work dir writable.
//
// Installations the script needs but cannot reach (pyenv under /root, mode 0700) are re-exposed:
// the unreachable ancestor is covered with a world-traversable tmpfs and the needed directory is
// bound read-only back into it, so nothing else under that ancestor becomes visible.
import { statSync } from 'node:fs';
import path from 'node:path';

export interface MountSpec {
  workDir: string;
  /** Directories to cover with an empty tmpfs. */
  hide: string[];
  /** Directories the script's user must be able to read. */
  readPaths: string[];
  /** Files to blank out (bound to /dev/null). */
  hideFiles: string[];
  tmpfsBytes: number;
  supportsSize: boolean;
  /** The uid the script runs as, to decide what it can traverse; null: as the worker's user. */
  uid: number | null;
}

type MountOp = { kind: 'tmpfs' | 'dir'; dest: string } | { kind: 'ro-bind' | 'bind'; src: string; dest: string };

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function within(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The top-most ancestor of `p` (or `p` itself) that `uid` cannot enter, null if the whole chain is open. */
export function firstUntraversable(p: string, uid: number | null): string | null {
  if (uid === null) return null;
  const parts = path.resolve(p).split(path.sep).filter(Boolean);
  let cur = '/';
  for (const part of parts) {
    cur = path.join(cur, part);
    let st;
    try {
      st = statSync(cur);
    } catch {
      return null;
    }
    const mode = st.mode;
    // The run's gid equals its uid (setpriv --regid=<uid> --clear-groups).
    const ok = st.uid === uid ? mode & 0o100 : st.gid === uid ? mode & 0o010 : mode & 0o001;
    if (st.isDirectory() && !ok) return cur;
  }
  return null;
}

function pathDepth(p: string): number {
  return p.split(path.sep).filter(Boolean).length;
}

export function bwrapMountArgs(spec: MountSpec): string[] {
  const ops: MountOp[] = [];
  const covered = new Set<string>();
  const cover = (dir: string) => {
    if (!covered.has(dir) && isDir(dir)) {
      covered.add(dir);
      ops.push({ kind: 'tmpfs', dest: dir });
    }
  };
  for (const h of spec.hide) if (path.resolve(h) !== '/') cover(path.resolve(h));
  // The work dir is bound last, so an unreachable ancestor of it can simply be covered.
  const blockedWork = firstUntraversable(spec.workDir, spec.uid);
  if (blockedWork && blockedWork !== path.resolve(spec.workDir)) cover(blockedWork);
  const reads = [...new Set(spec.readPaths.map((p) => path.resolve(p)))].filter((p) => isDir(p) || statSafe(p));
  for (const r of reads) {
    const blocked = firstUntraversable(r, spec.uid);
    if (blocked && blocked !== r) cover(blocked);
    const hidden = [...covered].some((c) => within(r, c));
    if (hidden || blocked) ops.push({ kind: 'ro-bind', src: r, dest: r });
  }
  ops.push({ kind: 'bind', src: path.resolve(spec.workDir), dest: path.resolve(spec.workDir) });
  ops.push(...mountPointDirs(ops));
  // Parents before children; at one path: tmpfs, then dir, then bind, so each lands on the one before.
  const rank = { tmpfs: 0, dir: 1, 'ro-bind': 2, bind: 2 } as const;
  ops.sort((a, b) => pathDepth(a.dest) - pathDepth(b.dest) || rank[a.kind] - rank[b.kind]);
  const size = (bytes: number) => (spec.supportsSize ? ['--size', String(bytes)] : []);
  const args = [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--perms', '1777', ...size(spec.tmpfsBytes), '--tmpfs', '/tmp',
    '--perms', '1777', ...size(spec.tmpfsBytes), '--tmpfs', '/dev/shm',
  ];
  for (const op of ops) {
    if (op.kind === 'tmpfs') args.push('--tmpfs', op.dest);
    else if (op.kind === 'dir') args.push('--perms', '0755', '--dir', op.dest);
    else if (op.kind === 'bind' || op.kind === 'ro-bind') args.push(`--${op.kind}`, op.src, op.dest);
  }
  for (const f of spec.hideFiles) args.push('--ro-bind', '/dev/null', f);
  args.push('--chdir', spec.workDir);
  return args;
}

/**
 * Directories bwrap must create inside a covering tmpfs to reach a bind's mount point. Made
 * explicitly with mode 0755: bwrap would otherwise create them 0700 as root, and the script's
 * user could not walk through them to its own work dir.
 */
function mountPointDirs(ops: MountOp[]): MountOp[] {
  const tmpfs = ops.filter((o) => o.kind === 'tmpfs').map((o) => o.dest);
  const binds = ops.filter((o) => o.kind !== 'tmpfs').map((o) => o.dest);
  const dests = new Set(ops.map((o) => o.dest));
  const dirs = new Set<string>();
  for (const dest of binds) {
    const cover = tmpfs.filter((c) => c !== dest && within(dest, c)).sort((a, b) => b.length - a.length)[0];
    if (!cover) continue;
    for (let p = path.dirname(dest); p !== cover && within(p, cover); p = path.dirname(p)) {
      const insideBind = binds.some((b) => b !== dest && within(p, b));
      if (!dests.has(p) && !insideBind) dirs.add(p);
    }
  }
  return [...dirs].map((dest) => ({ kind: 'dir', dest }));
}

function statSafe(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}
