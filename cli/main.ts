// physvec command line. Each verb lives in cli/commands/<verb>.ts; errors map to exit codes
// (BadInputError → 2 with a message naming the file/field and the fix; anything else → 1).
import { Command, CommanderError } from 'commander';
import { BadInputError } from '../lib/errors.js';
import { commandModules } from './commands/index.js';
import { EXIT } from './output.js';

const program = new Command()
  .name('physvec')
  .description('Reproduce figures of quantum many-body papers with self-verifying LLM agents, durably, on Temporal.')
  .showHelpAfterError()
  .exitOverride();

for (const load of commandModules) (await load()).register(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? 0 : EXIT.badInput;
  } else if (err instanceof BadInputError || (err as Error)?.name === 'BadInputError') {
    process.stderr.write(`physvec: ${(err as Error).message}\n`);
    process.exitCode = EXIT.badInput;
  } else {
    process.stderr.write(`physvec: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = EXIT.failed;
  }
}
