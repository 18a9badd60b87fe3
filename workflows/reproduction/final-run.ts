// The final run of the verified script, and the reproduction's verdict: the scientific verifier
// passed, every convergence case converged — also at the script's own setting — and the script ran.
import type { StageEnv } from '../shared/run-record.js';
import { light } from '../shared/activities.js';

export async function finalRun(env: StageEnv, scientificPassed: boolean): Promise<{ status: 'passed' | 'failed'; message?: string }> {
  const { record, runAll } = env;
  env.enter('final');
  // The final run records its calls (same command; only the job's text differs): the report states what ran.
  const [run] = await runAll([await light.fullScriptJob({ summary: record.script, recordCalls: true })]);
  record.finalRun = run;
  // A converged escalation only says the value stops moving at large knobs; the script's own setting must give it too.
  for (const c of record.convergence) {
    if (!c.converged || !c.monitor) continue;
    c.ownSetting = await light.checkOwnSetting({ monitor: c.monitor, criteria: c.criteria, converged: c.sequence[c.sequence.length - 1]?.value, run: run! });
  }
  // A case whose variant never ran its own code (the writer's fault) is excluded, as a faulty assertion variant is.
  const converged = record.convergence.every((c) => c.writerFault || (c.converged && c.ownSetting?.pass !== false));
  if (scientificPassed && converged && run!.exitCode === 0) return { status: 'passed' };
  const message = !scientificPassed
    ? 'the scientific verifier did not pass within its iteration limit'
    : !converged
      ? record.convergence.some((c) => c.ownSetting?.pass === false) ? "the script's own setting is not converged" : 'a convergence case did not converge'
      : 'the final run failed';
  return { status: 'failed', message };
}
