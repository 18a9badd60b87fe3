// How the development server runs: the official Temporal CLI (`temporal server start-dev`) with a
// SQLite file, so workflow state survives restarts. Pure data.
import { SEARCH_ATTRIBUTE_FLAGS } from './search-attributes.js';

export const DEV_SERVER = {
  host: '127.0.0.1',
  port: 7233,
  uiPort: 8233,
  namespace: 'default',
  dbFileName: 'temporal.db',
  /**
   * Dynamic config: keep histories of closed workflows for the dev server's default 24 h; limits raised a bit for campaigns.
   * One write partition per task queue: task priority orders tasks within a partition, and a retry of an
   * interrupted run must go before the queued ones (workers/retry-priority.ts). Read partitions stay at the
   * default so a backlog an older physvec wrote to the other partitions still drains.
   */
  dynamicConfig: ['limit.maxIDLength=1000', 'matching.numTaskqueueWritePartitions=1', 'frontend.workerVersioningDataAPIs=true', 'matching.maxDeployments=100000', 'matching.wv.VersionDrainageStatusRefreshInterval="5s"', 'matching.wv.VersionDrainageStatusVisibilityGracePeriod="5s"'],
  readinessTimeoutMs: 60_000,
} as const;

export function devServerArgs(opts: { dbFile: string; port: number; uiPort: number; host?: string; namespace?: string }): string[] {
  const args = [
    'server', 'start-dev',
    '--db-filename', opts.dbFile,
    '--ip', opts.host ?? DEV_SERVER.host,
    '--port', String(opts.port),
    '--ui-port', String(opts.uiPort),
    '--namespace', opts.namespace ?? DEV_SERVER.namespace,
    '--log-level', 'warn',
  ];
  for (const sa of SEARCH_ATTRIBUTE_FLAGS) args.push('--search-attribute', sa);
  for (const dc of DEV_SERVER.dynamicConfig) args.push('--dynamic-config-value', dc);
  return args;
}
