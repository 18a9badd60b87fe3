// OpenTelemetry traces of a worker (off by default): workflow → activity spans from Temporal's
// OpenTelemetry interceptors, with physvec's own LLM-call and sandbox-run spans (lib/telemetry/spans.ts)
// as children of the activity span. The workflow side runs inside the workflow sandbox, so its
// interceptor module must be compiled into the bundle (workflow-bundle.ts) and its spans leave the
// sandbox through the `exporter` sink, which every worker of a traced bundle must register. Both
// happen only while tracing is on: an untraced bundle has no interceptor and calls no sink.
import { createRequire } from 'node:module';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor, makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, WorkerOptions } from '@temporalio/worker';
import type { TracesExporter } from '../../schemas/telemetry.js';

/** The workflow-side interceptors (inbound RunWorkflow, outbound StartActivity spans), for the bundler. */
export const TRACING_WORKFLOW_MODULE = createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

let active: { provider: NodeTracerProvider; processor: SpanProcessor; resource: Resource } | undefined;

/**
 * Start exporting spans from this process: OTLP/HTTP (the exporter reads the standard
 * OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and _HEADERS), the console, or a
 * given exporter (tests). Once per process.
 */
export function startTracing(exporter: Exclude<TracesExporter, 'off'> | SpanExporter): void {
  if (active) return;
  const resource = Resource.default().merge(new Resource({ 'service.name': process.env.OTEL_SERVICE_NAME ?? 'physvec-worker' }));
  const processor =
    exporter === 'otlp' ? new BatchSpanProcessor(new OTLPTraceExporter()) : new SimpleSpanProcessor(exporter === 'console' ? new ConsoleSpanExporter() : exporter);
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  // Global: the activity interceptor and lib/telemetry/spans.ts find the tracer and the active context through the API.
  provider.register();
  active = { provider, processor, resource };
}

export function tracingActive(): boolean {
  return active !== undefined;
}

/** Activity interceptors and sinks a worker adds while tracing is on (none otherwise). */
export function tracingWorkerParts(): { activity: ActivityInterceptorsFactory[]; sinks: WorkerOptions['sinks'] } {
  if (!active) return { activity: [], sinks: undefined };
  return {
    activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
    sinks: { exporter: makeWorkflowExporter(active.processor, active.resource) },
  };
}

/** Send what is still batched (a worker that stops must not lose its last spans). */
export async function flushTracing(): Promise<void> {
  await active?.provider.forceFlush();
}
