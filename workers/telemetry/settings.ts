// What `physvec worker` serves and sends: a flag wins over the environment, the environment over the
// `telemetry` section of physvec.config.json; both are off by default.
//   metrics: --metrics, PHYSVEC_METRICS, telemetry.metrics   (":9464", "127.0.0.1:9464", "[::1]:9464")
//   traces:  --traces, PHYSVEC_TRACES or OTEL_TRACES_EXPORTER, telemetry.traces   (otlp | console | off/none)
import { isIP } from 'node:net';
import { BadInputError, badInputFromZod } from '../../lib/errors.js';
import { configPath, loadConfig } from '../../lib/config.js';
import { TelemetryConfig, TracesExporter } from '../../schemas/telemetry.js';

export interface MetricsEndpoint {
  /** host:port as Core's exporter binds it. */
  bindAddress: string;
  /** Where the value came from, for error messages ("--metrics", "PHYSVEC_METRICS", "<file>: telemetry.metrics"). */
  source: string;
}

export interface TelemetrySettings {
  metrics: MetricsEndpoint | null;
  traces: TracesExporter;
}

export const TELEMETRY_OFF: TelemetrySettings = { metrics: null, traces: 'off' };

const ADDRESS = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s]*)):(\d{1,5})$/;

/** ":9464" (every interface), "HOST:PORT" with an IP address or localhost, "[v6]:PORT". */
export function parseMetricsAddress(value: string, source: string): MetricsEndpoint {
  const m = ADDRESS.exec(value.trim());
  const fix = 'give :PORT (every interface) or IP:PORT, e.g. :9464 or 127.0.0.1:9464';
  if (!m) throw new BadInputError(`${source}: "${value}" is not an address to serve metrics on; ${fix}`);
  const port = Number(m[3]);
  if (!(port >= 1 && port <= 65535)) throw new BadInputError(`${source}: port ${m[3]} is out of range (1-65535); ${fix}`);
  const host = m[1] ?? (m[2] === '' ? '0.0.0.0' : m[2] === 'localhost' ? '127.0.0.1' : m[2]!);
  if (!isIP(host)) throw new BadInputError(`${source}: "${host}" is not an IP address (host names are not resolved here); ${fix}`);
  return { bindAddress: isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`, source };
}

function tracesFrom(value: string, source: string): TracesExporter {
  const v = value.trim().toLowerCase() === 'none' ? 'off' : value.trim().toLowerCase();
  const parsed = TracesExporter.safeParse(v);
  if (!parsed.success) throw new BadInputError(`${source}: expected otlp, console or off, got "${value}"`);
  return parsed.data;
}

function configured(): TelemetryConfig {
  const raw = (loadConfig() as Record<string, unknown>).telemetry ?? {};
  const parsed = TelemetryConfig.safeParse(raw);
  if (!parsed.success) throw badInputFromZod(parsed.error, `${configPath()}: telemetry`);
  return parsed.data;
}

export function telemetrySettings(flags: { metrics?: string; traces?: string }, env: NodeJS.ProcessEnv = process.env): TelemetrySettings {
  const file = configured();
  const where = `${configPath()}: telemetry`;
  const metrics =
    flags.metrics !== undefined ? parseMetricsAddress(flags.metrics, '--metrics')
    : env.PHYSVEC_METRICS ? parseMetricsAddress(env.PHYSVEC_METRICS, 'PHYSVEC_METRICS')
    : file.metrics !== null ? parseMetricsAddress(file.metrics, `${where}.metrics`)
    : null;
  const traces =
    flags.traces !== undefined ? tracesFrom(flags.traces, '--traces')
    : env.PHYSVEC_TRACES ? tracesFrom(env.PHYSVEC_TRACES, 'PHYSVEC_TRACES')
    : env.OTEL_TRACES_EXPORTER ? tracesFrom(env.OTEL_TRACES_EXPORTER, 'OTEL_TRACES_EXPORTER')
    : file.traces;
  return { metrics, traces };
}
