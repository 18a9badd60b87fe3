// Client/worker connection settings follow Temporal's own conventions (TEMPORAL_ADDRESS,
// TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, TEMPORAL_PROFILE and the TOML config file),
// so the same code talks to the local dev server, a self-hosted cluster or Temporal Cloud.
import { Client, Connection } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { DEV_SERVER } from '../../temporal-config/server.js';

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

/** How long a client waits for the server before saying it is unreachable (override: PHYSVEC_CONNECT_TIMEOUT_MS). */
export function connectTimeoutMs(): number {
  const v = Number(process.env.PHYSVEC_CONNECT_TIMEOUT_MS);
  return Number.isFinite(v) && v > 0 ? v : 5000;
}

export async function connectClient(): Promise<{ client: Client; connection: Connection; target: TemporalTarget }> {
  const target = temporalTarget();
  let connection: Connection;
  try {
    connection = await Connection.connect({ connectTimeout: connectTimeoutMs(), ...target.connectionOptions } as Parameters<typeof Connection.connect>[0]);
  } catch (err) {
    throw new TemporalUnreachableError(target.address, (err as Error).message ?? String(err));
  }
  return { client: new Client({ connection, namespace: target.namespace }), connection, target };
}

export async function connectWorker(): Promise<{ connection: NativeConnection; target: TemporalTarget }> {
  const target = temporalTarget();
  // Loaded on demand: client-only commands never load the worker's native runtime.
  const { NativeConnection: Native } = await import('@temporalio/worker');
  let connection: NativeConnection;
  try {
    connection = await Native.connect(target.connectionOptions as Parameters<typeof Native.connect>[0]);
  } catch (err) {
    throw new TemporalUnreachableError(target.address, ((err as Error).message ?? String(err)).split('\n')[0]!);
  }
  return { connection, target };
}

/** Where a person opens a workflow in the Web UI (dev server default; override with PHYSVEC_UI_URL). */
export function uiUrl(workflowId?: string): string {
  const base = process.env.PHYSVEC_UI_URL ?? `http://${DEV_SERVER.host}:${process.env.PHYSVEC_UI_PORT ?? DEV_SERVER.uiPort}`;
  const ns = temporalTarget().namespace;
  return workflowId ? `${base}/namespaces/${ns}/workflows/${encodeURIComponent(workflowId)}` : base;
}
