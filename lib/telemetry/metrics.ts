// physvec's own Prometheus series, recorded through the Temporal SDK runtime's metric meter so that
// one endpoint (Core's, `physvec worker --metrics`) serves them beside the SDK's own series. Until a
// worker hands its meter over (useMetricMeter) every instrument is the SDK's no-op: processes that
// serve no metrics (the CLI, in-process workers, tests) pay nothing. Names are the exported ones
// (counters gain `_total` at export); docs/grafana-physvec.json charts them.
import { noopMetricMeter, type MetricCounter, type MetricHistogram, type MetricMeter } from '@temporalio/common';

/** Histogram buckets (seconds / US dollars) for Core's exporter: its default tops out at 10. */
export const HISTOGRAM_BUCKETS: Record<string, number[]> = {
  physvec_sandbox_run_seconds: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400],
  physvec_llm_call_seconds: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
  physvec_llm_call_cost_usd: [0.0001, 0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 10],
};

interface Instruments {
  sandboxRuns: MetricCounter;
  sandboxSeconds: MetricHistogram;
  sandboxStarts: MetricCounter;
  checkpointBytes: MetricCounter;
  checkpointSnapshots: MetricCounter;
  llmCalls: MetricCounter;
  llmTokens: MetricCounter;
  llmSeconds: MetricHistogram;
  llmCost: MetricHistogram;
  verdicts: MetricCounter;
}

let meter: MetricMeter = noopMetricMeter;
let instruments: Instruments | undefined;

/** The worker's runtime meter (Runtime.instance().metricMeter); from now on every series records there. */
export function useMetricMeter(m: MetricMeter): void {
  meter = m;
  instruments = undefined;
}

function metrics(): Instruments {
  instruments ??= {
    sandboxRuns: meter.createCounter('physvec_sandbox_runs', 'runs', 'sandbox runs by outcome (ok, script_error, killed_<reason>, attempt_failed, cancelled) and language'),
    sandboxSeconds: meter.createHistogram('physvec_sandbox_run_seconds', 'float', 's', 'wall time of sandbox runs by outcome'),
    sandboxStarts: meter.createCounter('physvec_sandbox_starts', 'runs', 'how sandbox interpreters started: warm (forked from the pre-imported python) or cold'),
    checkpointBytes: meter.createCounter('physvec_checkpoint_uploaded_bytes', 'bytes', 'checkpoint bytes stored into the artifact store (new content only)'),
    checkpointSnapshots: meter.createCounter('physvec_checkpoint_snapshots', 'snapshots', 'checkpoint snapshots that stored new content'),
    llmCalls: meter.createCounter('physvec_llm_calls', 'calls', 'callLlm activity attempts by provider, model, role and outcome'),
    llmTokens: meter.createCounter('physvec_llm_tokens', 'tokens', 'LLM tokens by provider, model, role and kind (input, output, cached_input)'),
    llmSeconds: meter.createHistogram('physvec_llm_call_seconds', 'float', 's', 'wall time of callLlm attempts'),
    llmCost: meter.createHistogram('physvec_llm_call_cost_usd', 'float', 'USD', 'dollar cost of each callLlm attempt (the _sum is the spend)'),
    verdicts: meter.createCounter('physvec_verdicts', 'runs', 'reproduction endings by verdict (a report was written)'),
  };
  return instruments;
}

export interface SandboxRunSample {
  outcome: string;
  language: string;
  seconds: number;
  start?: { path: string; chain?: string };
}

export function recordSandboxRun(s: SandboxRunSample): void {
  const m = metrics();
  m.sandboxRuns.add(1, { outcome: s.outcome, language: s.language });
  m.sandboxSeconds.record(s.seconds, { outcome: s.outcome, language: s.language });
  if (s.start) m.sandboxStarts.add(1, { path: s.start.path, chain: s.start.chain ?? 'none' });
}

export function recordCheckpointUpload(bytes: number): void {
  const m = metrics();
  m.checkpointSnapshots.add(1);
  if (bytes > 0) m.checkpointBytes.add(bytes);
}

export interface LlmCallSample {
  provider: string;
  model: string;
  role: string;
  outcome: string;
  seconds: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  costUsd: number;
}

export function recordLlmCall(s: LlmCallSample): void {
  const m = metrics();
  const tags = { provider: s.provider, model: s.model, role: s.role };
  m.llmCalls.add(1, { ...tags, outcome: s.outcome });
  m.llmSeconds.record(s.seconds, { provider: s.provider, role: s.role });
  m.llmCost.record(s.costUsd, tags);
  for (const [kind, n] of [['input', s.inputTokens], ['output', s.outputTokens], ['cached_input', s.cachedInputTokens]] as const) {
    if (n > 0) m.llmTokens.add(n, { ...tags, kind });
  }
}

export function recordVerdict(verdict: string): void {
  metrics().verdicts.add(1, { verdict });
}
