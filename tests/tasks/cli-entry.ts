// A tiny stand-in for cli/main.ts, so the `tasks` verb can be run through commander in tests and by
// hand: node --import tsx tests/tasks/cli-entry.ts tasks validate <root> [--json]
import { Command } from 'commander';
import { register } from '../../cli/commands/tasks.js';

const program = new Command('physvec');
register(program);
await program.parseAsync(process.argv);
