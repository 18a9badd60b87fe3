// Every CLI verb lives in its own file, named after the verb, exporting `register(program)`; this
// table wires them. A command line loads only the module of its verb (startup stays short for
// `status`, `runs`…, nothing for `--version`); help and unknown verbs load them all, and a verb's
// module holds its declarations only (flags, help text): its body is imported when its action runs.
import type { Command } from 'commander';

type Register = (program: Command) => void;
type Load = () => Promise<{ register: Register }>;

export const COMMANDS: Record<string, Load> = {
  server: () => import('./server.js'),
  worker: () => import('./worker.js'),
  demo: () => import('./demo.js'),
  reproduce: () => import('./reproduce.js'),
  status: () => import('./status.js'),
  runs: () => import('./runs.js'),
  stop: () => import('./stop.js'),
  approve: () => import('./approve.js'),
  resume: () => import('./resume.js'),
  upgrade: () => import('./upgrade.js'),
  tasks: () => import('./tasks.js'),
  report: () => import('./report.js'),
  cassette: () => import('./cassette.js'),
  toolchains: () => import('./toolchains.js'),
  kb: () => import('./kb.js'),
  'verifier-library': () => import('./verifier-library.js'),
  results: () => import('./results.js'),
  bench: () => import('./bench.js'),
  schedule: () => import('./schedule.js'),
  artifacts: () => import('./artifacts.js'),
  view: () => import('./view.js'),
};

export const commandModules: Load[] = Object.values(COMMANDS);

/** The modules a command line needs: its verb's, none for `--version`, or every one (help, unknown verbs). */
export function modulesFor(args: readonly string[]): Load[] {
  const verb = args[0];
  if (verb === '--version') return [];
  const one = verb !== undefined && Object.hasOwn(COMMANDS, verb) ? COMMANDS[verb] : verb === 'cancel' ? COMMANDS.stop : undefined;
  return one ? [one] : commandModules;
}
