// Client/worker connection settings follow Temporal's own conventions (TEMPORAL_ADDRESS,
// TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, TEMPORAL_PROFILE and the TOML config file),
// so the same code talks to the local dev server, a self-hosted cluster or Temporal Cloud.
import { Client, Connection } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { DEV_SERVER } from '../../temporal-config/server.js';
import { tcpListening } from './server-listening.js';

export interface TemporalTarget {
  address: string;
  namespace: string;
  connectionOptions: Record<string, unknown>;
}

export function temporalTarget(): TemporalTarget {
  const cfg = loadClientConnectConfig();
  const address = cfg.connectionOptions.address ?? `${DEV_SERVER.host}:${DEV_SERVER.port}`;
  return {
    address,
    namespace: cfg.namespace ?? DEV_SERVER.namespace,
    connectionOptions: { ...cfg.connectionOptions, address },
  };
}

/** No Temporal server answered at `address`: the CLI says which address it tried and how to start one. */
export class TemporalUnreachableError extends Error {
  override name = 'TemporalUnreachableError';
  constructor(readonly address: string, readonly detail: string) {
    super(`cannot reach the Temporal server at ${address} (${detail})`);
  }
}

/** How long a client waits for the server before asking whether anything listens (override: PHYSVEC_CONNECT_TIMEOUT_MS). */
export function connectTimeoutMs(): number {
  const v = Number(process.env.PHYSVEC_CONNECT_TIMEOUT_MS);
  return Number.isFinite(v) && v > 0 ? v : 5000;
}

/**
 * How long a server that accepts connections but does not answer yet (a starved host) is waited for
 * before it is called unreachable (override: PHYSVEC_SLOW_SERVER_WAIT_S; default 10 minutes).
 */
export function slowServerWaitMs(): number {
  const v = Number(process.env.PHYSVEC_SLOW_SERVER_WAIT_S);
  return (Number.isFinite(v) && v > 0 ? v : 600) * 1000;
}

export interface ConnectOptions {
  /** Told once when the server accepts connections but has not answered within the first deadline (default: a line on stderr, which --json verbs keep clean of). */
  onSlow?: (message: string) => void;
}

/** How a connect that ran out of time reads (grpc-js: "Failed to connect before the deadline"; core: "Timeout expired", "deadline exceeded"). */
const SLOW_ANSWER = /deadline|time(d)? ?out|timeout expired/i;

/**
 * Connects with `attempt` until it succeeds; a failure where nothing listens at the address is
 * unreachable at once (the user gets one line and the fix), one where the server accepts connections
 * but does not answer is a busy server, waited for up to slowServerWaitMs() (issue 24: load must not
 * become "cannot reach the server").
 */
async function patiently<T>(target: TemporalTarget, attempt: (deadlineMs: number) => Promise<T>, opts: ConnectOptions): Promise<T> {
  const since = Date.now();
  let deadline = connectTimeoutMs();
  let told = false;
  for (;;) {
    try {
      return await attempt(deadline);
    } catch (err) {
      // The SDK wraps the server's answer ("Failed to connect to Temporal server", cause: "16 UNAUTHENTICATED: …").
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      const detail = [(err as Error).message ?? String(err), cause].filter(Boolean).map((m) => m!.split('\n')[0]!).join(': ');
      const waited = Date.now() - since;
      // Only a call that ran out of time may be a busy server; a refused key or a TLS mismatch is final.
      if (!SLOW_ANSWER.test(detail)) throw new TemporalUnreachableError(target.address, detail);
      const tcp = await tcpListening(target.address, connectTimeoutMs());
      if (!tcp.listening || waited >= slowServerWaitMs()) {
        const slow = tcp.listening ? `; it accepts connections but did not answer in ${Math.round(waited / 1000)} s (PHYSVEC_SLOW_SERVER_WAIT_S)` : '';
        throw new TemporalUnreachableError(target.address, `${detail}${slow}`);
      }
      if (!told) {
        told = true;
        (opts.onSlow ?? ((m: string) => process.stderr.write(`physvec: ${m}\n`)))(`the Temporal server at ${target.address} accepts connections but has not answered in ${Math.round(waited / 1000)} s (a busy host?): still waiting, up to ${Math.round(slowServerWaitMs() / 60_000)} min`);
      }
      // Each later try waits longer: a starved server answers a patient call sooner than many short ones.
      deadline = Math.min(deadline * 2, 60_000);
    }
  }
}

export async function connectClient(opts: ConnectOptions = {}): Promise<{ client: Client; connection: Connection; target: TemporalTarget }> {
  const target = temporalTarget();
  const connection = await patiently(target, (deadlineMs) => Connection.connect({ connectTimeout: deadlineMs, ...target.connectionOptions } as Parameters<typeof Connection.connect>[0]), opts);
  return { client: new Client({ connection, namespace: target.namespace }), connection, target };
}

export async function connectWorker(opts: ConnectOptions = {}): Promise<{ connection: NativeConnection; target: TemporalTarget }> {
  const target = temporalTarget();
  // Loaded on demand: client-only commands never load the worker's native runtime.
  const { NativeConnection: Native } = await import('@temporalio/worker');
  // The native connection has a deadline of its own (core's); the loop above repeats it.
  const connection = await patiently(target, () => Native.connect(target.connectionOptions as Parameters<typeof Native.connect>[0]), opts);
  return { connection, target };
}

/** Where a person opens a workflow in the Web UI (dev server default; override with PHYSVEC_UI_URL). */
export function uiUrl(workflowId?: string): string {
  const base = process.env.PHYSVEC_UI_URL ?? `http://${DEV_SERVER.host}:${process.env.PHYSVEC_UI_PORT ?? DEV_SERVER.uiPort}`;
  const ns = temporalTarget().namespace;
  return workflowId ? `${base}/namespaces/${ns}/workflows/${encodeURIComponent(workflowId)}` : base;
}
