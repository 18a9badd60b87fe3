// Every CLI verb lives in its own file exporting `register(program)`; this list wires them.
import type { Command } from 'commander';

type Register = (program: Command) => void;
export const commandModules: Array<() => Promise<{ register: Register }>> = [
  () => import('./server.js'),
  () => import('./worker.js'),
  () => import('./demo.js'),
  () => import('./reproduce.js'),
  () => import('./status.js'),
  () => import('./runs.js'),
  () => import('./tasks.js'),
  () => import('./report.js'),
  () => import('./cassette.js'),
  () => import('./toolchains.js'),
  () => import('./kb.js'),
  () => import('./verifier-library.js'),
  () => import('./results.js'),
  () => import('./bench.js'),
  () => import('./schedule.js'),
];
