// physvec resume <workflow-id> [--note <text>] — continue a reproduction paused at a human gate
// (`reproduce --pause-after <stage>`, or a `pause` signal): the `resume` signal.
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('resume <workflowId>')
    .description('continue a reproduction paused after a stage (reproduce --pause-after <stage>)')
    .option('--note <text>', 'a note recorded with the resume')
    .option('--json', 'print one JSON document')
    .action(async (workflowId: string, opts: { note?: string; json?: boolean }) => (await import('../runs/run-control.js')).signalGate(workflowId, 'resume', opts));
}
