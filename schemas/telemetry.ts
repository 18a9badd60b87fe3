// The `telemetry` section of physvec.config.json: what `physvec worker` serves and sends when no flag
// or environment variable says otherwise. Both are off by default.
import { z } from 'zod';

export const TracesExporter = z.enum(['off', 'otlp', 'console']);
export type TracesExporter = z.infer<typeof TracesExporter>;

export const TelemetryConfig = z
  .object({
    /** Where the worker serves Prometheus metrics: ":9464" (every interface) or "127.0.0.1:9464"; null: not served. */
    metrics: z.string().min(1).nullable().default(null),
    /** Where spans go: OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318) or the console. */
    traces: TracesExporter.default('off'),
  })
  .strict();
export type TelemetryConfig = z.infer<typeof TelemetryConfig>;
