// The filesystem a bwrap'd script sees: the host read-only, some directories hidden behind empty
// tmpfs mounts (see hidden-paths.ts), fresh /tmp and /dev/shm, and only its work dir writable.
//
// Installations the script needs but cannot reach (pyenv under /root, mode 0700; a venv inside a
// hidden repo) are re-exposed: the unreachable ancestor is covered with a world-traversable tmpfs
// and the needed directory is bound read-only back into it, so nothing else there becomes visible.
import { statSync } from 'node:fs';
import path from 'node:path';

export interface MountSpec {
  workDir: string;
  /** Directories to cover with an empty tmpfs. */
  hide: string[];
  /** Directories the script's user must be able to read. */
  readPaths: string[];
  tmpfsBytes: number;
  supportsSize: boolean;
  /** The uid the script runs as, to decide what it can traverse; null: as the worker's user. */
  uid: number | null;
}

type MountOp = { kind: 'tmpfs' | 'dir'; dest: string } | { kind: 'ro-bind' | 'bind'; src: string; dest: string };

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

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

function strictlyWithin(child: string, parent: string): boolean {
  return child !== parent && within(child, parent);
}

/** The top-most ancestor of `p` (or `p` itself) that `uid` cannot enter, null if the whole chain is open. */
export function firstUntraversable(p: string, uid: number | null): string | null {
  if (uid === null) return null;
  let cur = '/';
  for (const part of path.resolve(p).split(path.sep).filter(Boolean)) {
    cur = path.join(cur, part);
    let st;
    try {
      st = statSync(cur);
    } catch {
      return null;
    }
    // The run's gid equals its uid (setpriv --regid=<uid> --clear-groups).
    const ok = st.uid === uid ? st.mode & 0o100 : st.gid === uid ? st.mode & 0o010 : st.mode & 0o001;
    if (st.isDirectory() && !ok) return cur;
  }
  return null;
}

function pathDepth(p: string): number {
  return p.split(path.sep).filter(Boolean).length;
}

export function bwrapMountArgs(spec: MountSpec): string[] {
  const workDir = path.resolve(spec.workDir);
  const reads = [...new Set(spec.readPaths.map((p) => path.resolve(p)))].filter(exists);
  const candidates = spec.hide.map((h) => path.resolve(h)).filter((h) => h !== '/' && isDir(h));
  for (const p of [workDir, ...reads]) {
    const blocked = firstUntraversable(p, spec.uid);
    if (blocked && blocked !== p) candidates.push(blocked);
  }
  // A cover inside another cover adds nothing; keep the outermost.
  const covers = [...new Set(candidates)].filter((c, _, all) => !all.some((o) => strictlyWithin(c, o)));

  const ops: MountOp[] = covers.map((dest) => ({ kind: 'tmpfs', dest }));
  for (const r of reads) {
    if (covers.some((c) => within(r, c))) ops.push({ kind: 'ro-bind', src: r, dest: r });
  }
  ops.push({ kind: 'bind', src: workDir, dest: workDir });
  ops.push(...mountPointDirs(ops, covers));
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
  args.push('--chdir', workDir);
  return args;
}

/**
 * Directories bwrap must create inside a covering tmpfs to reach a bind's mount point. Made
 * explicitly with mode 0755: bwrap would otherwise create them 0700 as root, and the script's
 * user could not walk through them to its own work dir.
 */
function mountPointDirs(ops: MountOp[], covers: string[]): MountOp[] {
  const binds = ops.filter((o) => o.kind === 'bind' || o.kind === 'ro-bind').map((o) => o.dest);
  const dirs = new Set<string>();
  for (const dest of binds) {
    const cover = covers.filter((c) => strictlyWithin(dest, c)).sort((a, b) => b.length - a.length)[0];
    if (!cover) continue;
    for (let p = path.dirname(dest); p !== cover && strictlyWithin(p, cover); p = path.dirname(p)) {
      if (!binds.some((b) => within(p, b))) dirs.add(p);
    }
  }
  return [...dirs].map((dest) => ({ kind: 'dir', dest }));
}
