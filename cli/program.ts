// The physvec program: every verb registered on a fresh commander program, and every failure turned
// into one line and an exit code (cli/failure.ts). `runPhysvec` runs one command line and returns its
// exit code; cli/main.ts is the process around it (tests call it in-process). The failure module is
// imported only on failure (it loads Temporal's client), so `--help` and `--version` stay light.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { repoRoot } from '../lib/paths.js';
import { modulesFor } from './commands/index.js';
import { rejectRepeatedFlags } from './flags.js';

const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** The verb path the user typed (e.g. `bench run`), for the --help hint. */
function usageOf(program: Command, args: readonly string[]): string {
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

export async function buildProgram(args: readonly string[]): Promise<Command> {
  const program = new Command()
    .name('physvec')
    .description('Reproduce figures of quantum many-body papers with self-verifying LLM agents, durably, on Temporal.')
    .version(version, '--version', 'print the physvec version')
    .exitOverride();
  program.configureOutput({
    // Commander's own usage errors: one line naming the flag or argument, and where the usage is.
    outputError: (text, write) => write(`physvec: ${text.trim().replace(/^error: /, '').split('\n').join('; ')} (see \`physvec ${usageOf(program, args)} --help\`)\n`),
  });
  for (const load of modulesFor(args)) (await load()).register(program);
  rejectRepeatedFlags(program);
  return program;
}

/** Run one command line (without `node main.ts`); resolves to its exit code. */
export async function runPhysvec(args: readonly string[]): Promise<number> {
  process.exitCode = undefined;
  try {
    const program = await buildProgram(args);
    await program.parseAsync([...args], { from: 'user' });
    return Number(process.exitCode ?? 0);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode !== 0 && args.includes('--json')) {
        const { reportFailure, wantsJson } = await import('./failure.js');
        if (wantsJson(args)) reportFailure(err, args);
      }
      return err.exitCode === 0 ? 0 : 2;
    }
    return (await import('./failure.js')).reportFailure(err, args);
  } finally {
    process.exitCode = undefined;
  }
}
