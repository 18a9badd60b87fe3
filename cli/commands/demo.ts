// physvec demo — the main job on the embedded defaults: dev server (started if needed), workers in
// this process, and the bundled task reproduced end to end with the scripted model (the Author's
// script carries three faults that the verifiers must find and repair). `--smoke` runs the
// platform's smoke task instead (one script in the sandbox).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('demo')
    .description('run the bundled demo task end to end (dev server + in-process workers + scripted model)')
    .option('--smoke', 'run the platform smoke task instead (one script in the sandbox)')
    .option('--model <provider:model>', 'use a real model instead of the demo cassette')
    .action(async (opts: { smoke?: boolean; model?: string }) => (await import('../runs/demo-run.js')).runDemo(opts));
}
