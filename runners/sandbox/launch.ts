// A run's launch: the command line of its chain — cgroup join → prlimit (per-process caps; cold
// chains only) → bwrap (namespaces, read-only root, seccomp: no user namespaces) → setpriv (the run's uid, locked for
// the run; a warm holder's own uid) → the interpreter, or on a warm start the holder the zygote forks the script into — and
// the environment its script gets. Built the same way for a run and for a chain started ahead of
// its run (prestart.ts), so the two can be compared argument by argument.
import path from 'node:path';
import type { SandboxRequest } from '../../schemas/sandbox.js';
import type { ResolvedRunner } from '../languages/profile.js';
import type { RunCgroup } from './cgroup.js';
import { buildSandboxEnv } from './env.js';
import { pathsHiddenFromScripts } from './hidden-paths.js';
import { prlimitArgs, tmpfsBytes } from './limits.js';
import { bwrapMountArgs } from './mounts.js';
import type { IsolationPlan } from './plan.js';
import { namespaceFlags } from './probe.js';
import { runStateEnv } from './run-state/paths.js';
import { noUserNamespaceFilter } from './seccomp.js';
import { BWRAP_INFO_FD, holderArgv } from './holder.js';
import { holderUidOf } from './uid.js';
import type { PythonZygote } from './zygote.js';

/** The fd bwrap reads the seccomp filter from. */
export const SECCOMP_FD = 3;

export interface Launch {
  /** The chain (a warm chain ends in the holder, followed by the script's argv unless it was started ahead of its run). */
  argv: string[];
  /** The script's environment (a warm chain itself runs with `chainEnv`). */
  env: Record<string, string>;
  uid: number | null;
  plan: IsolationPlan;
  cgroup: RunCgroup | null;
  /** Bytes bwrap reads from fd 3 (`--seccomp 3`). */
  seccompFilter: Buffer | null;
  /** The chain ends in the warm holder; this zygote runs the script. */
  zygote: PythonZygote | null;
}

/** What a warm chain's own processes (cgroup join, prlimit, bwrap, setpriv, holder) run with: nothing of any run. */
export const WARM_CHAIN_ENV: Readonly<Record<string, string>> = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };

export type LaunchRequest = Pick<SandboxRequest, 'entry' | 'args' | 'env' | 'memoryMb' | 'cpuSeconds' | 'maxProcesses' | 'diskMb'>;

export function buildLaunch(
  req: LaunchRequest,
  runner: ResolvedRunner,
  plan: IsolationPlan,
  uid: number | null,
  workDir: string,
  privateDir: string,
  cgroup: RunCgroup | null,
  zygote: PythonZygote | null,
  /**
   * The holder carries the script's argv as ignored arguments, so `ps` and the audit trail say what
   * runs; a chain started ahead of its run (prestart.ts) cannot know them.
   */
  holderNamesScript = true,
): Launch {
  const useBwrap = plan.bwrap !== null;
  const env = buildSandboxEnv({
    workDir,
    privateDir,
    tmpDir: useBwrap ? '/tmp' : path.join(privateDir, 'tmp'),
    pathDirs: runner.pathDirs,
    runnerEnv: { ...runner.env({ workDir, privateDir }), ...runStateEnv(privateDir) },
    requestEnv: req.env,
  });
  const scriptArgv = runner.argv(req.entry, req.args);
  let argv = zygote ? [...holderArgv(), ...(holderNamesScript ? scriptArgv : [])] : scriptArgv;
  if (uid !== null && plan.setpriv) {
    // A warm chain's holder gets a uid of its own, out of the script's reach (uid.ts holderUidOf).
    const as = zygote ? holderUidOf(uid) : uid;
    argv = [
      plan.setpriv, `--reuid=${as}`, `--regid=${as}`, '--clear-groups',
      '--bounding-set=-all', '--inh-caps=-all', '--no-new-privs', '--', ...argv,
    ];
  }
  if (useBwrap) {
    argv = [
      plan.bwrap!,
      ...bwrapMountArgs({
        workDir,
        hide: pathsHiddenFromScripts(),
        readPaths: runner.readPaths,
        tmpfsBytes: tmpfsBytes(req),
        supportsSize: plan.bwrapSupportsSize,
        uid,
      }),
      ...namespaceFlags(plan.root),
      '--hostname', 'physvec-sandbox',
      // --new-session keeps a script from the terminal (TIOCSTI). A warm chain runs no script (its
      // run process, a fork of the warm python, makes its own session) and is started in a session
      // without a terminal: a new session there would only put the holder's set-up in an autogroup
      // at the neighbours' priority (lib/process-priority.ts).
      '--die-with-parent', ...(zygote ? [] : ['--new-session']),
      ...(plan.seccomp ? ['--seccomp', String(SECCOMP_FD)] : []),
      ...(zygote ? ['--info-fd', String(BWRAP_INFO_FD)] : []),
      '--', ...argv,
    ];
  }
  // A warm chain runs nothing of the script (its run process, a fork of the warm python, sets its
  // own rlimits: warmRlimits, set in zygote.py), so it skips prlimit: one exec less on the own
  // chain's path (~1 ms at load 4). A chain started ahead is then matched to a run by its armed
  // rlimits too (start-path.ts).
  if (plan.prlimit && !zygote) argv = [...prlimitArgs(plan.prlimit, req), ...argv];
  // Outermost, so the first process is in the cgroup before anything else is started.
  if (cgroup) argv = cgroup.joinArgv(argv);
  return { argv, env, uid, plan, cgroup, seccompFilter: useBwrap && plan.seccomp ? noUserNamespaceFilter() : null, zygote };
}
