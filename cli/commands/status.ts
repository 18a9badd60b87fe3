// physvec status <workflow-id> — where a run is: status, stage, iteration, and its progress query.
import type { Command } from 'commander';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { SA } from '../../temporal-config/search-attributes.js';
import { line, printJson } from '../output.js';

export function register(program: Command): void {
  program
    .command('status <workflowId>')
    .description('status, stage, iteration and live progress of a workflow')
    .option('--json', 'print one JSON document')
    .action(async (workflowId: string, opts: { json?: boolean }) => {
      const { client, connection } = await connectClient();
      try {
        const handle = client.workflow.getHandle(workflowId);
        const d = await handle.describe();
        const sa = d.typedSearchAttributes;
        let progress: unknown = null;
        let result: unknown = null;
        if (d.status.name !== 'RUNNING') {
          // A closed run's outcome is in its history; no worker is needed to read it.
          result = await handle.result().catch((err: Error) => ({ failed: err.message }));
        }
        try {
          progress = await Promise.race([
            handle.query('progress'),
            new Promise((_, reject) => setTimeout(() => reject(new Error('no worker answered the query within 5 s (start one with `physvec worker`)')), 5000)),
          ]);
        } catch (err) {
          progress = { unavailable: (err as Error).message };
        }
        const summary = {
          workflowId,
          type: d.type,
          status: d.status.name,
          taskId: sa.get(SA.TaskId),
          stage: sa.get(SA.Stage),
          iteration: sa.get(SA.Iteration),
          runStatus: sa.get(SA.Verdict),
          model: sa.get(SA.Model),
          startTime: d.startTime,
          closeTime: d.closeTime,
          ui: uiUrl(workflowId),
          progress,
          result,
        };
        if (opts.json) return printJson(summary);
        line(`${workflowId} (${d.type}): ${d.status.name}; stage ${summary.stage ?? '-'} iteration ${summary.iteration ?? '-'} status ${summary.runStatus ?? '-'}`);
        line(`UI: ${summary.ui}`);
        const tokens = (progress as { tokens?: unknown } | null)?.tokens ?? (result as { tokens?: unknown } | null)?.tokens;
        if (tokens) line(`tokens: ${JSON.stringify(tokens)}`);
        line(`progress: ${JSON.stringify(progress, null, 2)}`);
        if (result) line(`result: ${JSON.stringify(result, null, 2)}`);
      } finally {
        await connection.close();
      }
    });
}
