// physvec view [--out <dir> | --port <n>] — an index of every run and campaign (Temporal visibility,
// the results store, the evidence reports on disk): verdict, task, model, tokens, cost, stage, build,
// start and end, with links to each report and to its page in the Temporal UI. Served on loopback, or
// written once as a static page. This file declares the verb; its body is cli/runs/view-run.ts.
import type { Command } from 'commander';
import { z } from 'zod';
import { BadInputError } from '../../lib/errors.js';
import { badFlags } from '../flags.js';

const DEFAULT_PORT = 8240;

const Flags = z.object({
  out: z.string().min(1).optional(),
  port: z.coerce.number().int().min(0).max(65535).optional(),
  limit: z.coerce.number().int().positive().default(500),
  json: z.boolean().optional(),
});

export function register(program: Command): void {
  program
    .command('view')
    .description('an index of every run and campaign, with links to their reports and the Temporal UI: served on 127.0.0.1, or written with --out')
    .option('--out <dir>', 'write <dir>/index.html (links relative to it) instead of serving')
    .option('--port <n>', `serve on 127.0.0.1:<n> (default ${DEFAULT_PORT}; 0 takes any free port)`)
    .option('--limit <n>', 'at most this many runs and campaigns from Temporal (newest first)', '500')
    .option('--json', 'print the index as one JSON document')
    .action(async (raw: Record<string, unknown>) => {
      const parsed = Flags.safeParse(raw);
      if (!parsed.success) throw badFlags(parsed.error, {}, raw);
      const f = parsed.data;
      if (f.out !== undefined && f.port !== undefined) throw new BadInputError(`--port ${f.port} with --out ${f.out}: --out writes a page and serves nothing; give one of them`, undefined, 'port');
      await (await import('../runs/view-run.js')).viewRuns({ ...f, port: f.port ?? DEFAULT_PORT });
    });
}
