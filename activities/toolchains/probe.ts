// One probe command of a toolchain profile, run directly (our own commands, not generated code) with
// a minimal environment. A probe that times out is tried again with a doubled timeout until its
// budget is spent, because on a busy host (load 50–80 on 2 cores, issue 24) a healthy interpreter
// can take minutes to import its packages: a timeout is evidence of load, never of absence. The
// outcome of a probe that never finished says so, with the host's load, so nobody is told to
// reinstall a package that is there.
import os from 'node:os';
import { execa } from 'execa';
import { expandArgv } from '../../lib/toolchains/interpreter.js';
import type { ProbeCommand } from '../../schemas/toolchain.js';

/** What a probe that never finished saw: its tries' timeouts and the load when the last ran out. */
export interface ProbeBusy {
  triesMs: number[];
  load1: number;
  cores: number;
}

export type ProbeOutcome =
  | { ok: true; output: string }
  | { ok: false; timedOut: false; reason: string }
  | { ok: false; timedOut: true; command: string; busy: ProbeBusy };

/** Default budget: tries of timeoutMs, 2× and 4× it. */
export const DEFAULT_BUDGET_FACTOR = 7;

/** The tries' timeouts: doubling from timeoutMs, the last one cut to what is left of the budget. */
export function probeTries(probe: Pick<ProbeCommand, 'timeoutMs' | 'timeoutBudgetMs'>): number[] {
  const budget = Math.max(probe.timeoutBudgetMs ?? probe.timeoutMs * DEFAULT_BUDGET_FACTOR, probe.timeoutMs);
  const tries: number[] = [];
  let spent = 0;
  for (let t = probe.timeoutMs; spent < budget; t *= 2) {
    const next = Math.min(t, budget - spent);
    tries.push(next);
    spent += next;
  }
  return tries;
}

/** The host's 1-minute load and its cores, as the reason names them. */
export function hostLoad(): { load1: number; cores: number } {
  return { load1: Math.round(os.loadavg()[0]! * 10) / 10, cores: os.availableParallelism() };
}

/** Threads capped and no secrets: probes import heavy packages on a shared machine. */
function probeEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'OPENBLAS_CORETYPE', 'JULIA_DEPOT_PATH', 'JULIA_PROJECT'];
  const env: Record<string, string> = { OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1', MKL_NUM_THREADS: '1', JAX_PLATFORMS: 'cpu', JULIA_NUM_THREADS: '1' };
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  return env;
}

export async function runProbe(probe: ProbeCommand, interpreter: string): Promise<ProbeOutcome> {
  const [cmd, ...args] = expandArgv(probe.argv, interpreter);
  const shown = [probe.argv[0] === '{interpreter}' ? interpreter : cmd, ...probe.argv.slice(1, 2)].join(' ');
  const tries = probeTries(probe);
  for (const timeout of tries) {
    const r = await execa(cmd!, args, { reject: false, timeout, env: probeEnv(), extendEnv: false, stdin: 'ignore' });
    if (r.timedOut) continue;
    const output = `${r.stdout ?? ''}\n${r.stderr ?? ''}`;
    if (r.failed && r.exitCode === undefined) return failed(`\`${shown} …\` could not start: ${r.shortMessage}`);
    if (r.exitCode !== 0 && !probe.anyExitCode) {
      return failed(`\`${shown} …\` exited with ${r.exitCode}: ${lastLine(r.stderr ?? '') || lastLine(r.stdout ?? '') || '(no output)'}`);
    }
    if (probe.expectPattern && !new RegExp(probe.expectPattern).test(output)) {
      return failed(`\`${shown} …\` does not look like the expected program (its output does not match /${probe.expectPattern}/): ${lastLine(output) || '(no output)'}`);
    }
    return { ok: true, output };
  }
  return { ok: false, timedOut: true, command: `\`${shown} …\``, busy: { triesMs: tries, ...hostLoad() } };
}

/** "`python -c …` did not finish within 60+120+240 s at load 47 on 2 cores". */
export function describeBusy(command: string, busy: ProbeBusy): string {
  const seconds = busy.triesMs.map((ms) => String(Math.round(ms / 100) / 10)).join('+');
  return `${command} did not finish within ${seconds} s at load ${busy.load1} on ${busy.cores} core${busy.cores === 1 ? '' : 's'}`;
}

const failed = (reason: string): ProbeOutcome => ({ ok: false, timedOut: false, reason });

export function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines.at(-1) ?? '').slice(0, 300);
}
