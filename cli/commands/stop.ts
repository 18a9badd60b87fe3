// physvec stop|cancel <workflow-id> — end a run where it is: the workflow is cancelled, and the run
// closes with Verdict `stopped` and its report (the body, cli/runs/run-control.ts, loads on action).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('stop <workflowId>')
    .alias('cancel')
    .description('stop a run: cancels the workflow; it ends with verdict stopped and writes its report')
    .option('--no-wait', 'return once the cancellation is requested (default: wait up to 20 s for the run to close)')
    .option('--json', 'print one JSON document')
    .action(async (workflowId: string, opts: { wait: boolean; json?: boolean }) => (await import('../runs/run-control.js')).stopRun(workflowId, opts));
}
