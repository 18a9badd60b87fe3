// A control group per run: one memory limit and one process limit for all of a run's processes
// together, whatever they map (shared anonymous memory, tmpfs pages and page cache are charged to
// the cgroup of the process that touches them, unlike RLIMIT_DATA which counts private memory of
// one process). Exceeding the limit triggers the kernel's OOM killer inside the run's cgroup only;
// the watchdog then kills the rest of the run and reports `killed: memory` with the peak.
//
// cgroup v1 (a hierarchy per controller, as on this machine) and v2 (one unified hierarchy) are
// both handled; a controller is taken from whichever hierarchy has it. Run cgroups, named
// `physvec-<runId>`, are made as children of the worker's own cgroup (so a limit an operator put on
// the worker still covers its runs, and nothing of ours stays there between runs), or under
// PHYSVEC_SANDBOX_CGROUP_PARENT (a path inside the hierarchy). On v2 a cgroup holding processes
// cannot hand controllers to children, so there a `physvec` child of the worker's cgroup is needed
// for the controllers, and where that is refused the sibling `<parent of the worker's
// cgroup>/physvec-sandbox` is tried.
//
// The run's first process joins the cgroup itself, before it execs anything (`joinArgv`), so no
// child can be forked outside it.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cgroupOwner, forgetCgroupOwner, markedCgroups, recordCgroupOwner } from './cgroup-owner.js';

export type CgroupController = 'memory' | 'pids';

export interface CgroupHost {
  version: 1 | 2;
  /** Where run cgroups are made, per controller (on v2 both are the same directory). */
  parents: Record<CgroupController, string>;
  /** v1: memory.memsw.* exists, so swap is capped too. */
  memsw: boolean;
  /**
   * v1: where run cgroups are made in the cpuacct hierarchy, for the run's CPU time (its time limit,
   * see cpu-time.ts); absent: v2 (cpu.stat is in every cgroup) or no cpuacct hierarchy (the CPU time
   * is then summed over the run's processes from /proc).
   */
  cpuacct?: string;
}

export type CgroupProbe = { ok: true; host: CgroupHost } | { ok: false; error: string };

interface MountInfo {
  root: string;
  mountPoint: string;
  fsType: string;
  superOptions: string[];
}

function readMounts(): MountInfo[] {
  const out: MountInfo[] = [];
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const f = left.split(' ');
    const r = right.split(' ');
    out.push({ root: unescapeMount(f[3] ?? ''), mountPoint: unescapeMount(f[4] ?? ''), fsType: r[0] ?? '', superOptions: (r[2] ?? '').split(',') });
  }
  return out;
}

function unescapeMount(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

/** /proc/self/cgroup: the worker's cgroup path per v1 controller, and its v2 path under key ''. */
function ownCgroups(): Map<string, string> {
  const own = new Map<string, string>();
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === '') own.set('', m[2]!);
    for (const c of m[1]!.split(',')) if (c) own.set(c, m[2]!);
  }
  return own;
}

/** The directory of cgroup `cgPath` in a hierarchy mounted at `mount` (which may show only a subtree). */
function dirOf(mount: MountInfo, cgPath: string): string {
  const rel = path.posix.relative(mount.root, cgPath);
  return rel.startsWith('..') ? mount.mountPoint : path.join(mount.mountPoint, rel);
}

function configuredParent(): string | null {
  const p = process.env.PHYSVEC_SANDBOX_CGROUP_PARENT;
  return p && p.startsWith('/') ? p : null;
}

function write(file: string, value: string): void {
  writeFileSync(file, value);
}

/** Find hierarchies for memory and pids and make (or reuse) the parent of the run cgroups. */
export function probeCgroups(): CgroupProbe {
  let mounts: MountInfo[];
  let own: Map<string, string>;
  try {
    mounts = readMounts();
    own = ownCgroups();
  } catch (err) {
    return { ok: false, error: `cgroups could not be read (${(err as Error).message})` };
  }
  const v1 = (c: CgroupController | 'cpuacct') => mounts.find((m) => m.fsType === 'cgroup' && m.superOptions.includes(c));
  const v2 = mounts.find((m) => m.fsType === 'cgroup2');
  const v2Controllers = v2 ? readOr(path.join(dirOf(v2, '/'), 'cgroup.controllers'), '').split(/\s+/) : [];
  const memV1 = v1('memory');
  const pidsV1 = v1('pids');
  try {
    if (memV1 && pidsV1) {
      const parents = {
        memory: v1Parent(memV1, own.get('memory') ?? '/'),
        pids: v1Parent(pidsV1, own.get('pids') ?? '/'),
      };
      const cpuacct = optionalV1Parent(v1('cpuacct'), own.get('cpuacct') ?? '/');
      return { ok: true, host: { version: 1, parents, memsw: existsSync(path.join(parents.memory, 'memory.memsw.limit_in_bytes')), ...(cpuacct ? { cpuacct } : {}) } };
    }
    if (v2 && v2Controllers.includes('memory') && v2Controllers.includes('pids')) {
      const parent = v2Parent(v2, own.get('') ?? '/');
      return { ok: true, host: { version: 2, parents: { memory: parent, pids: parent }, memsw: false } };
    }
  } catch (err) {
    return { ok: false, error: `no cgroup could be made for sandbox runs (${(err as Error).message}); run the worker as root or set PHYSVEC_SANDBOX_CGROUP_PARENT to a delegated cgroup` };
  }
  const lacking = [!memV1 && !v2Controllers.includes('memory') ? 'memory' : null, !pidsV1 && !v2Controllers.includes('pids') ? 'pids' : null].filter(Boolean);
  return { ok: false, error: `the host has no ${lacking.join(' and ') || 'usable'} cgroup controller mounted` };
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

function v1Parent(mount: MountInfo, ownPath: string): string {
  const configured = configuredParent();
  const dir = dirOf(mount, configured ?? ownPath);
  if (configured) mkdirSync(dir, { recursive: true });
  return dir;
}

/** The cpuacct parent when that hierarchy is mounted and usable; CPU accounting is optional (a /proc fallback exists). */
function optionalV1Parent(mount: MountInfo | undefined, ownPath: string): string | null {
  if (!mount) return null;
  try {
    return v1Parent(mount, ownPath);
  } catch {
    return null;
  }
}

function v2Parent(mount: MountInfo, ownPath: string): string {
  const candidates = configuredParent() ? [configuredParent()!] : [path.posix.join(ownPath, 'physvec'), path.posix.join(path.posix.dirname(ownPath), 'physvec-sandbox')];
  let last: Error | null = null;
  for (const cg of candidates) {
    const dir = dirOf(mount, cg);
    try {
      // Controllers must be enabled from the top down to the parent of the run cgroups, and in it.
      const chain = cg.split('/').filter(Boolean).map((_, i, all) => dirOf(mount, '/' + all.slice(0, i).join('/')));
      const made = !existsSync(dir);
      mkdirSync(dir, { recursive: true });
      try {
        for (const d of [...chain, dir]) enableV2Controllers(d);
      } catch (err) {
        // EBUSY: an ancestor holds processes. Leave nothing behind and try the next candidate.
        if (made) rmdirQuietly(dir);
        throw err;
      }
      return dir;
    } catch (err) {
      last = err as Error;
    }
  }
  throw last ?? new Error('no cgroup v2 parent');
}

function rmdirQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Busy or gone.
  }
}

function enableV2Controllers(dir: string): void {
  const enabled = readOr(path.join(dir, 'cgroup.subtree_control'), '').split(/\s+/);
  const needed = ['memory', 'pids'].filter((c) => !enabled.includes(c));
  if (needed.length) write(path.join(dir, 'cgroup.subtree_control'), needed.map((c) => `+${c}`).join(' '));
}

/**
 * Pause before the next look at a cgroup that still holds tasks: short at first, since after a
 * normal end the last one (bwrap's pid 1, still exiting when the outer bwrap has reported) is gone
 * within a few ms; 20 ms once it takes longer.
 */
function retryDelayMs(round: number): number {
  return Math.min(20, 2 ** round);
}

/** Every directory a run cgroup is made in (one per hierarchy). */
function runCgroupParents(host: CgroupHost): string[] {
  return [...Object.values(host.parents), ...(host.cpuacct ? [host.cpuacct] : [])];
}

/** Run cgroups are named with this prefix; the stale sweep touches nothing else. */
export const RUN_CGROUP_PREFIX = 'physvec-';

export interface CgroupLimits {
  memoryBytes: number;
  maxProcesses: number;
}

/** One run's cgroup(s): made with its limits, joined by its first process, read and removed after. */
export class RunCgroup {
  readonly dirs: string[];
  private maxSeen = 0;

  readonly name: string;

  private constructor(readonly host: CgroupHost, runId: string) {
    this.name = `${RUN_CGROUP_PREFIX}${runId}`;
    this.dirs = [...new Set(runCgroupParents(host).map((p) => path.join(p, this.name)))];
  }

  static create(host: CgroupHost, runId: string, limits: CgroupLimits): RunCgroup {
    const cg = new RunCgroup(host, runId);
    recordCgroupOwner(cg.name);
    try {
      for (const d of cg.dirs) mkdirSync(d);
    } catch (err) {
      cg.removeQuietly();
      throw err;
    }
    try {
      const mem = cg.dir('memory');
      const pids = cg.dir('pids');
      if (host.version === 1) {
        write(path.join(mem, 'memory.limit_in_bytes'), String(limits.memoryBytes));
        if (host.memsw) write(path.join(mem, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
      } else {
        write(path.join(mem, 'memory.max'), String(limits.memoryBytes));
        if (existsSync(path.join(mem, 'memory.swap.max'))) write(path.join(mem, 'memory.swap.max'), '0');
        // One OOM kill takes the whole run, not just its largest process.
        if (existsSync(path.join(mem, 'memory.oom.group'))) write(path.join(mem, 'memory.oom.group'), '1');
      }
      write(path.join(pids, 'pids.max'), String(limits.maxProcesses));
    } catch (err) {
      cg.removeQuietly();
      throw err;
    }
    return cg;
  }

  private dir(c: CgroupController): string {
    return path.join(this.host.parents[c], this.name);
  }

  /** Files the first process writes its pid into before it execs the run. */
  get procsFiles(): string[] {
    return this.dirs.map((d) => path.join(d, 'cgroup.procs'));
  }

  /** argv that joins this cgroup and then execs `argv` (same pid, so nothing runs outside). */
  joinArgv(argv: string[]): string[] {
    const script = 'while [ "$1" != -- ]; do echo $$ > "$1" || { echo "physvec sandbox: could not join the run cgroup $1" >&2; exit 125; }; shift; done; shift; exec "$@"';
    return ['/bin/sh', '-c', script, 'physvec-join-cgroup', ...this.procsFiles, '--', ...argv];
  }

  /** CPU time all the run's processes used so far (ms; exited ones included), or null where the host does not count it per cgroup. */
  cpuUsageMs(): number | null {
    if (this.host.version === 1) {
      if (!this.host.cpuacct) return null;
      const text = readOr(path.join(this.host.cpuacct, this.name, 'cpuacct.usage'), '').trim();
      return /^\d+$/.test(text) ? Number(text) / 1e6 : null;
    }
    const usec = /^usage_usec\s+(\d+)/m.exec(readOr(path.join(this.dir('memory'), 'cpu.stat'), ''))?.[1];
    return usec === undefined ? null : Number(usec) / 1000;
  }

  /** Kills by the OOM killer inside this cgroup so far. */
  oomKills(): number {
    const mem = this.dir('memory');
    const text = this.host.version === 1 ? readOr(path.join(mem, 'memory.oom_control'), '') : readOr(path.join(mem, 'memory.events'), '');
    return Number(/^oom_kill\s+(\d+)/m.exec(text)?.[1] ?? 0);
  }

  /** The most memory the run had charged at once (bytes), or null when the host does not say. */
  memoryPeak(): number | null {
    const mem = this.dir('memory');
    const file = this.host.version === 1 ? 'memory.max_usage_in_bytes' : 'memory.peak';
    const peak = Number(readOr(path.join(mem, file), '').trim());
    if (Number.isFinite(peak) && peak > 0) return Math.max(peak, this.maxSeen);
    return this.maxSeen || null;
  }

  /** Called by the watchdog; keeps a running maximum where the kernel has no peak file (v2 before 5.19). */
  sampleMemory(): void {
    if (this.host.version === 2) {
      const now = Number(readOr(path.join(this.dir('memory'), 'memory.current'), '0').trim());
      if (now > this.maxSeen) this.maxSeen = now;
    }
  }

  pids(): number[] {
    const all = new Set<number>();
    for (const d of this.dirs) {
      for (const p of readOr(path.join(d, 'cgroup.procs'), '').split('\n')) if (p) all.add(Number(p));
    }
    return [...all];
  }

  /** SIGKILL everything in the cgroup until it is empty (the pids limit bounds a fork loop). */
  async killAll(): Promise<void> {
    if (this.host.version === 2 && existsSync(path.join(this.dirs[0]!, 'cgroup.kill'))) {
      try {
        write(path.join(this.dirs[0]!, 'cgroup.kill'), '1');
      } catch {
        // Fall back to signalling one by one.
      }
    }
    for (let round = 0; round < 100; round++) {
      const left = this.pids();
      if (left.length === 0) return;
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await new Promise((r) => setTimeout(r, retryDelayMs(round)));
    }
  }

  /** Kill what is left and remove the cgroup; an error names what stayed (the sweep retries it). */
  async remove(): Promise<void> {
    await this.killAll();
    let lastError: Error | null = null;
    // Killed tasks leave the cgroup only once they are fully gone; give them a moment.
    for (let attempt = 0; attempt < 100; attempt++) {
      lastError = null;
      for (const d of this.dirs) {
        try {
          rmdirSync(d);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') lastError = err as Error;
        }
      }
      if (!lastError) return forgetCgroupOwner(this.name);
      await new Promise((r) => setTimeout(r, retryDelayMs(attempt)));
    }
    throw new Error(`could not remove cgroup ${this.name}: ${lastError!.message}`);
  }

  private removeQuietly(): void {
    for (const d of this.dirs) rmdirQuietly(d);
    forgetCgroupOwner(this.name);
  }
}

/** No task in `dir` or any cgroup below it. */
function emptyRecursively(dir: string): boolean {
  if (readOr(path.join(dir, 'cgroup.procs'), 'x').trim() !== '') return false;
  return readdirSync(dir, { withFileTypes: true }).every((e) => !e.isDirectory() || emptyRecursively(path.join(dir, e.name)));
}

/** rmdir `dir` after the cgroups below it, deepest first (a cgroup with children cannot be removed). */
function rmdirRecursively(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) rmdirRecursively(path.join(dir, e.name));
  rmdirSync(dir);
}

/** Past this age a cgroup whose maker is unknown is taken to be over (another worker may be setting a younger one up). */
const UNKNOWN_OWNER_STALE_MS = 3600_000;

/**
 * Run cgroups whose run is certainly over, removed: no task left in them (recursively), and not a
 * run of this process (`active`: run ids between creating their cgroup and removing it). A cgroup
 * whose maker's marker says it is gone or is this process goes at once, whatever its age; a live
 * worker's are left to it; one whose maker is unknown goes once untouched for an hour. Markers whose
 * cgroup and maker are both gone are dropped.
 */
export function removeStaleCgroups(host: CgroupHost, active: ReadonlySet<string>, now = Date.now()): string[] {
  const removed: string[] = [];
  const present = new Set<string>();
  for (const parent of new Set(runCgroupParents(host))) {
    let names: string[];
    try {
      names = readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name.startsWith(RUN_CGROUP_PREFIX)).map((e) => e.name);
    } catch {
      continue;
    }
    for (const name of names) {
      present.add(name);
      if (active.has(name.slice(RUN_CGROUP_PREFIX.length))) continue;
      const owner = cgroupOwner(name);
      if (owner === 'alive') continue;
      const dir = path.join(parent, name);
      try {
        if (owner === 'unknown' && now - statSync(dir).mtimeMs < UNKNOWN_OWNER_STALE_MS) continue;
        if (!emptyRecursively(dir)) continue;
        rmdirRecursively(dir);
        removed.push(dir);
        present.delete(name);
      } catch {
        // Busy or gone.
        if (existsSync(dir)) present.add(name);
      }
    }
  }
  for (const name of markedCgroups()) {
    if (present.has(name) || active.has(name.slice(RUN_CGROUP_PREFIX.length))) continue;
    const owner = cgroupOwner(name);
    if (owner === 'gone' || owner === 'this-process') forgetCgroupOwner(name);
  }
  return removed;
}

/** Run cgroups of this process whose removal failed; retried at the next run. */
const leftBehind = new Set<RunCgroup>();

/** Remove a run's cgroup; never throws: a failure is logged and retried at the next run. */
export async function removeRunCgroup(cg: RunCgroup): Promise<void> {
  try {
    await cg.remove();
    leftBehind.delete(cg);
  } catch (err) {
    leftBehind.add(cg);
    console.warn(`physvec sandbox: ${(err as Error).message}; it is retried at the next run`);
  }
}

/** In the background of a run's start: another try at what could not be removed before. */
export function retryLeftCgroups(): void {
  for (const cg of leftBehind) {
    leftBehind.delete(cg);
    void removeRunCgroup(cg);
  }
}

let staleSwept = false;

/** Once per process: the stale-cgroup sweep, in the background of the first run. */
export function sweepStaleCgroupsOnce(host: CgroupHost, active: ReadonlySet<string>): void {
  if (staleSwept) return;
  staleSwept = true;
  try {
    removeStaleCgroups(host, active);
  } catch {
    // Nothing to do about it here; the next worker start tries again.
  }
}
