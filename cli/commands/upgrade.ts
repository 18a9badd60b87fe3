// physvec upgrade <workflow-id> --to <build> — move a running run to another build (issue 25.2). Runs
// stay on the build that started them; this is the explicit exception, e.g. a long campaign that
// should finish on a fixed build. The body (lib/temporal/upgrade-run.ts) loads on action.
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('upgrade <workflowId>')
    .description('move a running run (and the children it starts later) to another build that has workers; safe because workflow changes are patched and CI replays older builds\' histories')
    .requiredOption('--to <build>', 'the build id to move it to (as `physvec worker` prints it)')
    .option('--json', 'print one JSON document')
    .action(async (workflowId: string, opts: { to: string; json?: boolean }) => (await import('../runs/run-control.js')).upgradeRunVerb(workflowId, opts));
}
