// physvec approve <workflow-id> [--note <text>] — a person's approval of a reproduction (the `approve`
// signal; recorded in the run's report with the stage it came at).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('approve <workflowId>')
    .description('approve a running reproduction (recorded in its report); use `physvec resume` to continue a paused one')
    .option('--note <text>', 'a note recorded with the approval')
    .option('--json', 'print one JSON document')
    .action(async (workflowId: string, opts: { note?: string; json?: boolean }) => (await import('../runs/run-control.js')).signalGate(workflowId, 'approve', opts));
}
