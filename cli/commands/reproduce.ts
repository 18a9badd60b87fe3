// physvec reproduce <task.json> — start a reproduction workflow, show live progress, print its id and UI link.
import type { Command } from 'commander';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { startSmoke } from '../runs/smoke-run.js';
import { followSmoke } from '../runs/follow.js';
import { line, printJson, EXIT } from '../output.js';

export function register(program: Command): void {
  program
    .command('reproduce <task>')
    .description('reproduce the figure a task file asks for (starts a durable workflow)')
    .option('--no-wait', 'start the workflow and return at once')
    .option('--json', 'print one JSON document')
    .action(async (taskFile: string, opts: { wait: boolean; json?: boolean }) => {
      const { client, connection } = await connectClient();
      try {
        const { handle, workflowId } = await startSmoke(client, taskFile);
        if (!opts.json) {
          line(`workflow ${workflowId}`);
          line(`UI: ${uiUrl(workflowId)}`);
        }
        if (!opts.wait) {
          if (opts.json) printJson({ workflowId, ui: uiUrl(workflowId) });
          return;
        }
        const result = await followSmoke(handle, { quiet: !!opts.json });
        if (opts.json) printJson({ workflowId, ui: uiUrl(workflowId), result });
        if (result.status !== 'passed') process.exitCode = EXIT.failed;
      } finally {
        await connection.close();
      }
    });
}
