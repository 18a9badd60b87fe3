// Installs the SDK runtime with the worker's telemetry: Core's Prometheus exporter serves the SDK's
// series (schedule-to-start latency, slots, polls, …) and, through the runtime's metric meter,
// physvec's own (lib/telemetry/metrics.ts) on one endpoint. Counters end in _total and durations are
// in seconds, as Prometheus names them.
import { Runtime, type RuntimeOptions } from '@temporalio/worker';
import { BadInputError } from '../../lib/errors.js';
import { HISTOGRAM_BUCKETS, useMetricMeter } from '../../lib/telemetry/metrics.js';
import { startTracing } from './tracing.js';
import type { TelemetrySettings } from './settings.js';

export function installRuntimeWithTelemetry(options: RuntimeOptions, telemetry: TelemetrySettings): void {
  const { metrics } = telemetry;
  const prometheus = metrics
    ? { metrics: { metricPrefix: 'temporal_', prometheus: { bindAddress: metrics.bindAddress, countersTotalSuffix: true, useSecondsForDurations: true, histogramBucketOverrides: HISTOGRAM_BUCKETS } } }
    : {};
  try {
    Runtime.install({ ...options, telemetryOptions: { ...options.telemetryOptions, ...prometheus } });
  } catch (err) {
    const why = (err as Error).message;
    if (!metrics || !/prometheus|metrics|address/i.test(why)) throw err;
    const inUse = /in use/i.test(why);
    throw new BadInputError(`${metrics.source}: cannot serve metrics on ${metrics.bindAddress}: ${inUse ? 'the port is in use (another worker on this host?); choose another port' : `${why}; give an address of this host`}`);
  }
  if (metrics) useMetricMeter(Runtime.instance().metricMeter);
  if (telemetry.traces !== 'off') startTracing(telemetry.traces);
}
