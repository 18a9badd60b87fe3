// physvec server start|stop|status — the local Temporal dev server (SQLite under the state dir).
import type { Command } from 'commander';
// The dev-server module is imported when a sub-verb runs: `--help` loads only these declarations.
const devServer = () => import('../../lib/temporal/dev-server.js');
import { line, printJson, EXIT } from '../output.js';

export function register(program: Command): void {
  const server = program.command('server').description('the local Temporal dev server (temporal server start-dev, SQLite persistence)');
  server
    .command('start')
    .description('start the dev server unless one already answers; waits for `temporal operator cluster health`')
    .option('--json', 'print one JSON document')
    .action(async (opts: { json?: boolean }) => {
      const info = await (await devServer()).startDevServer();
      if (opts.json) return printJson(info);
      line(info.alreadyRunning ? `already running at ${info.address}` : `started (pid ${info.pid}) at ${info.address}, ready in ${info.readyMs} ms`);
      line(`Web UI: ${info.uiUrl}`);
      line(`database: ${info.dbFile}`);
    });
  server
    .command('stop')
    .description('stop the dev server started by `physvec server start`')
    .option('--json', 'print one JSON document')
    .action(async (opts: { json?: boolean }) => {
      const r = await (await devServer()).stopDevServer();
      if (opts.json) return printJson(r);
      line(r.stopped ? `stopped (pid ${r.pid})` : 'no dev server of ours was running');
    });
  server
    .command('retire-attributes')
    .description('remove the search attributes earlier builds wrote (Status); only once no worker of such a build runs — they could not start runs without them')
    .option('--json', 'print one JSON document')
    .action(async (opts: { json?: boolean }) => {
      const target = (await import('../../lib/temporal/connection.js')).temporalTarget();
      const r = await (await devServer()).migrateSearchAttributes(target.address, target.namespace, { retire: true });
      if (opts.json) return printJson(r);
      line(r.removed.length ? `removed ${r.removed.join(', ')} from ${target.address}` : `nothing to remove at ${target.address}`);
    });
  server
    .command('status')
    .description('is the server healthy, where is it, where is its UI')
    .option('--json', 'print one JSON document')
    .action(async (opts: { json?: boolean }) => {
      const s = await (await devServer()).devServerStatus();
      if (opts.json) printJson(s);
      else line(`${s.healthy ? 'SERVING' : 'NOT RUNNING'} at ${s.address}; UI ${s.uiUrl}; database ${s.dbFile}${s.pid ? `; pid ${s.pid}` : ''}`);
      if (!s.healthy) process.exitCode = EXIT.failed;
    });
}
