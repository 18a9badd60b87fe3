// physvec cassette export <workflow-id> — turn any recorded run into a cassette for the scripted
// model, so `--model scripted:<name>` replays it exactly, at zero cost.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { BadInputError } from '../../lib/errors.js';
import { repoRoot } from '../../lib/paths.js';
import { line, printJson } from '../output.js';

export function register(program: Command): void {
  const cassette = program.command('cassette').description('cassettes of the scripted model');
  cassette
    .command('export <workflowId>')
    .description('write a cassette of every LLM call of a run (child workflows included), for replay with --model scripted:<cassette>')
    .option('--out <file>', 'where to write it (default: <llm.cassettesDir>/<workflow-id>.json)')
    .option('--run-id <runId>', 'a specific run of the workflow (default: the latest)')
    .option('--name <name>', 'the cassette name (default: the workflow id)')
    .option('--json', 'print one JSON document: { file, model, entries, workflowId }')
    .action(async (workflowId: string, opts: { out?: string; runId?: string; name?: string; json?: boolean }) => {
      // Imported here, not at the top: `--help` loads only the declarations.
      const [{ WorkflowNotFoundError }, { artifactStore }, { CassetteExportError, exportCassette }, { loadConfig }, { connectClient }] = await Promise.all([
        import('@temporalio/client'), import('../../lib/artifacts/store.js'), import('../cassettes/export.js'), import('../../lib/config.js'), import('../../lib/temporal/connection.js'),
      ]);
      const config = loadConfig();
      const cassettesDir = path.resolve(repoRoot, config.llm.cassettesDir);
      const safeName = workflowId.replace(/[^A-Za-z0-9._-]+/g, '_');
      const file = path.resolve(opts.out ?? path.join(cassettesDir, `${safeName}.json`));
      const { client, connection } = await connectClient();
      try {
        const c = await exportCassette(client, workflowId, { runId: opts.runId, store: artifactStore(), name: opts.name ?? safeName });
        if (c.entries.length === 0) throw new BadInputError(`workflow ${workflowId} made no completed LLM calls: nothing to export`);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify(c, null, 2) + '\n');
        const inDir = path.dirname(file) === cassettesDir && file.endsWith('.json');
        const model = `scripted:${inDir ? path.basename(file, '.json') : path.relative(repoRoot, file).startsWith('..') ? file : path.relative(repoRoot, file)}`;
        if (opts.json) return printJson({ file, model, entries: c.entries.length, workflowId });
        line(`wrote ${c.entries.length} LLM call(s) of ${workflowId} to ${file}`);
        line(`replay with: --model ${model}`);
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) throw new BadInputError(`no workflow ${workflowId} on the Temporal server (closed runs stay 24 h on the dev server)`);
        if (err instanceof CassetteExportError) throw new BadInputError(err.message);
        throw err;
      } finally {
        await connection.close();
      }
    });
}
