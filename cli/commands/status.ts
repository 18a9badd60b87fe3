// physvec status <workflow-id> — where a run is: status, stage, iteration, verdict and progress.
// Answers within a few seconds even when no worker runs: a closed workflow's outcome is read from
// its history (no query, no worker needed); a running one is queried only when a worker polls its
// task queue, and then with a real gRPC deadline.
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('status <workflowId>')
    .description('status, stage, iteration, verdict and progress of a workflow (answers without a worker)')
    .option('--json', 'print one JSON document')
    .action(async (workflowId: string, opts: { json?: boolean }) => (await import('../runs/workflow-status.js')).showWorkflowStatus(workflowId, opts));
}
