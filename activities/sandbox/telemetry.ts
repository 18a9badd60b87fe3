// Metrics and a span for each sandbox run (the runScript activity and the runs pipeline activities
// make through it). A script that fails is a result (outcome script_error or killed_<reason>); an
// attempt that throws (worker shutdown, full disk, own failure) is attempt_failed, a cancelled one
// cancelled.
import { CancelledFailure } from '@temporalio/common';
import type { SandboxRequestInput, SandboxResult } from '../../schemas/sandbox.js';
import { recordSandboxRun } from '../../lib/telemetry/metrics.js';
import { inSpan, type Settled } from '../../lib/telemetry/spans.js';

type RunScript = (req: SandboxRequestInput) => Promise<SandboxResult>;

/** The same activities, their runScript measured and traced. */
export function instrumentSandbox<A extends { runScript: RunScript }>(activities: A): A {
  const runScript = activities.runScript.bind(activities);
  return { ...activities, runScript: (req: SandboxRequestInput) => measuredRun(req, () => runScript(req)) };
}

function outcomeOf(end: Settled<SandboxResult>): string {
  if (!end.ok) return end.error instanceof CancelledFailure ? 'cancelled' : 'attempt_failed';
  const r = end.value;
  if (r.ok) return 'ok';
  return r.killedReason ? `killed_${r.killedReason.replace('-', '_')}` : 'script_error';
}

function measuredRun(req: SandboxRequestInput, run: () => Promise<SandboxResult>): Promise<SandboxResult> {
  const t0 = performance.now();
  const language = typeof req?.language === 'string' ? req.language : 'unknown';
  const describe = (end: Settled<SandboxResult>) => {
    const outcome = outcomeOf(end);
    const r = end.ok ? end.value : undefined;
    recordSandboxRun({ outcome, language, seconds: (performance.now() - t0) / 1000, start: r?.start });
    return {
      'physvec.sandbox.outcome': outcome,
      ...(r
        ? {
            'physvec.sandbox.run_id': r.runId,
            'physvec.sandbox.exit_code': r.exitCode ?? -1,
            'physvec.sandbox.wall_ms': Math.round(r.durationMs),
            'physvec.sandbox.start': r.start?.path ?? 'unknown',
            'physvec.sandbox.isolation': r.isolation.mode,
            ...(r.usage.memoryPeakBytes !== null ? { 'physvec.sandbox.memory_peak_bytes': r.usage.memoryPeakBytes } : {}),
            ...(r.limits.cpuSeconds !== null ? { 'physvec.sandbox.cpu_limit_s': r.limits.cpuSeconds } : {}),
          }
        : {}),
    };
  };
  const attrs = { 'physvec.sandbox.language': language, 'physvec.sandbox.label': req?.label ?? '' };
  return inSpan(`SandboxRun:${req?.label ?? language}`, attrs, run, describe);
}
