// From what the host offers to what this run gets: which wrappers to use, and the honest list of
// protections that are missing, with one sentence a reader of the report can act on.
import { Protection, type IsolationReport } from '../../schemas/sandbox.js';
import type { CgroupHost } from './cgroup.js';
import type { IsolationProbe } from './probe.js';

export type IsolationMode = 'auto' | 'none';

export interface IsolationPlan {
  mode: IsolationReport['mode'];
  bwrap: string | null;
  setpriv: string | null;
  prlimit: string | null;
  /** Drop to a run-specific uid (only possible as root, with setpriv). */
  dropPrivileges: boolean;
  root: boolean;
  bwrapSupportsSize: boolean;
  /** Where run cgroups (memory + pids for the whole run) are made; null: per-process caps only. */
  cgroup: CgroupHost | null;
  /** Load the no-user-namespace seccomp filter into bwrap. */
  seccomp: boolean;
  /** du for the disk watchdog; null: only the per-file size cap applies. */
  du: string | null;
  missing: Protection[];
  /** Why each protection is missing, one clause each. */
  reasons: string[];
  note: string;
}

const NAMESPACE_PROTECTIONS: Protection[] = ['network', 'readonly-root', 'private-tmp', 'pid-namespace'];

/** `PHYSVEC_SANDBOX_ISOLATION=none` (or the explicit option) switches isolation off; meant for tests and debugging. */
export function isolationModeFromEnv(): IsolationMode {
  return process.env.PHYSVEC_SANDBOX_ISOLATION === 'none' ? 'none' : 'auto';
}

export function planIsolation(probe: IsolationProbe, mode: IsolationMode): IsolationPlan {
  if (mode === 'none') {
    return {
      mode: 'none', bwrap: null, setpriv: null, prlimit: null, dropPrivileges: false, root: probe.root, bwrapSupportsSize: false,
      cgroup: null, seccomp: false, du: null,
      missing: [...Protection.options],
      reasons: ['isolation was switched off'],
      note: "Isolation was switched off (isolation: 'none' or PHYSVEC_SANDBOX_ISOLATION=none): the script ran as the worker user with network, the whole filesystem and no resource limits; only the wall-clock timeout and the environment allow-list applied.",
    };
  }
  const missing: Protection[] = [];
  const reasons: string[] = [];
  const bwrap = probe.bwrap.works ? probe.bwrap.path : null;
  if (!bwrap) {
    missing.push(...NAMESPACE_PROTECTIONS);
    reasons.push(`${probe.bwrap.error ?? 'bwrap unavailable'}, so the script had network access, could write wherever its user may, and shared /tmp`);
  }
  const dropPrivileges = probe.root && probe.setpriv !== null;
  if (!dropPrivileges) {
    missing.push('unprivileged-user');
    reasons.push(probe.root
      ? 'setpriv is missing, so the script ran as root and the process cap did not apply'
      : 'the worker is not root, so the script ran as the worker\'s own user (the process cap counts the worker\'s processes too)');
  }
  if (!probe.prlimit) {
    missing.push('resource-limits');
    reasons.push('prlimit is missing, so memory, CPU, file-size and process caps were not set');
  }
  const cgroup = probe.cgroup.ok ? probe.cgroup.host : null;
  if (!probe.cgroup.ok) {
    missing.push('run-memory-limit', 'run-process-limit');
    reasons.push(`${probe.cgroup.error}, so memory and processes were capped per process only (shared memory not at all)`);
  }
  if (!probe.du) {
    missing.push('disk-limit');
    reasons.push('du is missing, so the run\'s disk use was not watched (only each file\'s size was capped)');
  }
  const seccomp = bwrap !== null && probe.seccomp.works;
  if (!seccomp) {
    missing.push('no-user-namespaces');
    reasons.push(`${bwrap ? probe.seccomp.error : 'without bwrap there is no seccomp filter'}, so the script could create user namespaces`);
  }
  return {
    mode: bwrap ? 'bwrap' : 'processes-only',
    bwrap,
    setpriv: dropPrivileges ? probe.setpriv : null,
    prlimit: probe.prlimit,
    dropPrivileges,
    root: probe.root,
    bwrapSupportsSize: probe.bwrap.supportsSize,
    cgroup,
    seccomp,
    du: probe.du,
    missing,
    reasons,
    note: noteFor(missing, reasons, bwrap !== null, dropPrivileges),
  };
}

/** The run could not use its own uid after all (e.g. the interpreter is unreachable without bwrap). */
export function withoutPrivilegeDrop(plan: IsolationPlan, why: string): IsolationPlan {
  const missing: Protection[] = plan.missing.includes('unprivileged-user') ? plan.missing : [...plan.missing, 'unprivileged-user'];
  const reasons = [...plan.reasons, `${why}, so the script ran as the worker's user`];
  return { ...plan, dropPrivileges: false, setpriv: null, missing, reasons, note: noteFor(missing, reasons, plan.bwrap !== null, false) };
}

/** The run cgroup could not be made after all (the probe's trial passed, this run's did not). */
export function withoutRunCgroup(plan: IsolationPlan, why: string): IsolationPlan {
  const missing: Protection[] = [...new Set<Protection>([...plan.missing, 'run-memory-limit', 'run-process-limit'])];
  const reasons = [...plan.reasons, `this run's cgroup could not be made (${why}), so memory and processes were capped per process only`];
  return { ...plan, cgroup: null, missing, reasons, note: noteFor(missing, reasons, plan.bwrap !== null, plan.dropPrivileges) };
}

function noteFor(missing: Protection[], reasons: string[], bwrap: boolean, ownUid: boolean): string {
  if (missing.length === 0) {
    return 'Full isolation: bubblewrap (no network, read-only root, private /tmp, own PID namespace, no user namespaces), a run-specific unprivileged uid, a cgroup capping memory and processes of the whole run, a disk cap on the work dir, prlimit caps per process, wall-clock kill of the whole process tree.';
  }
  const escape = !bwrap && !ownUid ? ' Processes that detach themselves (double fork) can outlive the run.' : '';
  return `Partial isolation: ${reasons.join('; ')}.${escape}`;
}

/** Every protection not missing, in the schema's order: what the result reports as in force. */
export function protectionsInForce(missing: readonly Protection[]): Protection[] {
  return Protection.options.filter((p) => !missing.includes(p));
}
