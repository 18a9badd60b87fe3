// physvec command line. Each verb lives in cli/commands/<verb>.ts. Every failure becomes one line
// (cli/failure.ts: BadInputError and usage errors → exit 2, failed work → 1; --json verbs also get a
// JSON error document on stdout); no verb prints a stack trace.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { repoRoot } from '../lib/paths.js';
import { commandModules } from './commands/index.js';
import { reportFailure } from './failure.js';

const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

const program = new Command()
  .name('physvec')
  .description('Reproduce figures of quantum many-body papers with self-verifying LLM agents, durably, on Temporal.')
  .version(version, '--version', 'print the physvec version')
  .configureOutput({
    // Commander's own usage errors: one line naming the flag or argument, and where the usage is.
    outputError: (text, write) => write(`physvec: ${text.trim().replace(/^error: /, '').split('\n').join('; ')} (see \`physvec ${usageOf(process.argv.slice(2))} --help\`)\n`),
  })
  .exitOverride();

/** The verb path the user typed (e.g. `bench run`), for the --help hint. */
function usageOf(args: string[]): string {
  const words: string[] = [];
  let cmd: Command = program;
  for (const a of args) {
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!sub) break;
    words.push(a);
    cmd = sub;
  }
  return words.join(' ') || '<verb>';
}

// A promise nobody awaited (a poll loop, a closing channel) must not end in a stack trace either.
process.on('unhandledRejection', (err) => {
  process.exitCode = reportFailure(err, process.argv);
});
process.on('uncaughtException', (err) => {
  process.exit(reportFailure(err, process.argv));
});

try {
  for (const load of commandModules) (await load()).register(program);
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    if (err.exitCode !== 0 && process.argv.includes('--json')) reportFailure(err, process.argv);
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else {
    process.exitCode = reportFailure(err, process.argv);
  }
}
