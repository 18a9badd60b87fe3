// Child spans of the activity span (the OpenTelemetry interceptor's RunActivity span is the active
// context inside an activity). Through the OpenTelemetry API only: until a worker registers a tracer
// provider (workers/telemetry/tracing.ts) every span is a non-recording no-op.
import { SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Run `fn` inside span `name`; `describe` adds the attributes known only at the end (tokens, exit code). */
export async function inSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>, describe: (end: Settled<T>) => Attributes): Promise<T> {
  return trace.getTracer('physvec').startActiveSpan(name, { attributes }, async (span) => {
    try {
      const value = await fn();
      span.setAttributes(describe({ ok: true, value }));
      return value;
    } catch (error) {
      span.setAttributes(describe({ ok: false, error }));
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message ?? String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
