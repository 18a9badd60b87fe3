// The worker's logger: Temporal's DefaultLogger (stderr) with two noisy cases condensed into one
// clear line each —
//  - a server outage: core logs "gRPC call poll_… retried N times" for every poller and "Error when
//    recording heartbeat: Status { … tcp connect error … }" for every running activity, each with a
//    multi-line error, every few seconds; we print one line per outage (what failed, why, that polling
//    goes on) and count the rest, which are reported when the next outage begins;
//  - a worker on a queue without workflows (the simulation queue) warns "No workflows registered";
//    that is by design, so one plain line says what the worker does instead.
import { formatWithOptions } from 'node:util';
import { DefaultLogger, type LogEntry, type LogLevel, type LogMetadata, type Logger } from '@temporalio/worker';

const LEVELS: LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];
const GRPC_RETRY = /^gRPC call (\w+) retried \d+ times/;
/** Core's other warnings while the server is unreachable (the worker heartbeat's namespace check). */
const NETWORK_ERROR = /^Network error while (.+)$/;
/** Any other core warning whose error says the server cannot be reached (heartbeats, completions). */
const UNREACHABLE = /tcp connect error|code: Unavailable|Connection refused/;
/** Silence this long between retry warnings means the outage ended. */
const OUTAGE_QUIET_MS = 30_000;

export class WorkerLogger implements Logger {
  private readonly inner: Logger;
  private lastRetryAt = Number.NEGATIVE_INFINITY;
  private suppressed = 0;

  /** `print` given: every line goes there, core's other messages too (formatted like DefaultLogger's). */
  constructor(private readonly level: LogLevel, private readonly print: (line: string) => void = (l) => process.stderr.write(`${l}\n`), private readonly now: () => number = Date.now, custom = false) {
    this.inner = new DefaultLogger(level, custom ? (e) => this.print(formatEntry(e)) : undefined);
  }

  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    if (GRPC_RETRY.test(message) || NETWORK_ERROR.test(message) || UNREACHABLE.test(message) || UNREACHABLE.test(String(meta?.error ?? ''))) return this.enabled(level) ? this.outage(message, meta) : undefined;
    if (message.startsWith('No workflows registered')) {
      if (!this.enabled(level)) return;
      this.print(`physvec worker: queue ${String(meta?.taskQueue ?? '?')} runs activities only (sandbox runs); workflows are served on the orchestration queue`);
      return;
    }
    this.inner.log(level, message, meta);
  }

  private enabled(level: LogLevel): boolean {
    return LEVELS.indexOf(level) >= LEVELS.indexOf(this.level);
  }

  private outage(message: string, meta?: LogMetadata): void {
    const t = this.now();
    const ongoing = t - this.lastRetryAt < OUTAGE_QUIET_MS;
    this.lastRetryAt = t;
    if (ongoing) {
      this.suppressed++;
      return;
    }
    const error = `${message} ${String(meta?.error ?? '')}`;
    const target = /ConnectError\("[^"]*", ([^,]+),/.exec(error)?.[1];
    const why = /message: "([^"]+)" \}/.exec(error)?.[1] ?? /code: (\w+)/.exec(error)?.[1] ?? 'unavailable';
    const before = this.suppressed ? ` (${this.suppressed} retry warnings were condensed during the previous outage)` : '';
    this.suppressed = 0;
    this.print(`physvec worker: cannot reach the Temporal server${target ? ` at ${target}` : ''} (${why}; ${GRPC_RETRY.exec(message)?.[1] ?? NETWORK_ERROR.exec(message)?.[1] ?? /^([^:{]+)/.exec(message)?.[1]?.trim().toLowerCase() ?? 'polling'}); polling keeps retrying quietly and resumes when it answers${before}`);
  }

  trace(message: string, meta?: LogMetadata): void { this.log('TRACE', message, meta); }
  debug(message: string, meta?: LogMetadata): void { this.log('DEBUG', message, meta); }
  info(message: string, meta?: LogMetadata): void { this.log('INFO', message, meta); }
  warn(message: string, meta?: LogMetadata): void { this.log('WARN', message, meta); }
  error(message: string, meta?: LogMetadata): void { this.log('ERROR', message, meta); }
}

function formatEntry({ level, message, meta, timestampNanos }: LogEntry): string {
  const at = new Date(Number(timestampNanos / 1_000_000n)).toISOString();
  return `${at} [${level}] ${message}${meta === undefined ? '' : ` ${formatWithOptions({ colors: false }, meta)}`}`;
}
