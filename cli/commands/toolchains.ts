// `physvec toolchains [--json]`: which toolchain profiles this machine can run, with versions.
// Exit code 0 whatever is installed (listing is not a failure); 2 only for bad usage.
import type { Command } from 'commander';
import type { ToolchainConfig, ToolchainStatus } from '../../schemas/toolchain.js';
import { textTable } from '../text-table.js';

export interface ToolchainsCommandDeps {
  out?: (line: string) => void;
  /** Detection (default: probe every profile now); tests pass one shared result. */
  detect?: (config: ToolchainConfig) => Promise<ToolchainStatus[]>;
}

export function register(program: Command, deps: ToolchainsCommandDeps = {}): void {
  const out = deps.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  program
    .command('toolchains')
    .description('list the toolchain profiles (itensors, tenpy, netket, qiskit, orca, pyscf) and whether each is installed here, with versions')
    .option('--json', 'print one JSON document on stdout, nothing else')
    .action(async (opts: { json?: boolean }) => {
      // Imported here, not at the top: `--help` loads only the declarations.
      const config = (await import('../../lib/toolchains/config.js')).loadToolchainConfig();
      const detect = deps.detect ?? (async (c: ToolchainConfig) => (await import('../../activities/toolchains/detect.js')).detectToolchains({ config: c }));
      const statuses = await detect(config);
      if (opts.json) out(JSON.stringify({ toolchains: statuses }, null, 2));
      else for (const l of toolchainsText(statuses, config)) out(l);
    });
}

export function toolchainsText(statuses: readonly ToolchainStatus[], config: ToolchainConfig): string[] {
  const rows = statuses.map((s) => {
    const profile = config.profiles.find((p) => p.name === s.profile)!;
    // 'timed out' (a busy host) is shown as itself: it is not "unavailable", nothing was found missing.
    const state = s.available ? 'available' : s.state;
    const packages = Object.entries(s.versions).map(([k, v]) => `${k} ${v}`).join(', ');
    // An unavailable toolchain's reason (often a long import error) goes last, where it widens no column.
    const extra = [
      s.available ? packages : s.reason ?? (s.state === 'not installed' ? '' : 'detection failed'),
      profile.substitutes.length ? `substitute for ${profile.substitutes.map((x) => x.for).join(', ')}` : '',
    ].filter(Boolean);
    return [s.profile, state, s.version ?? '-', s.language, s.topics.join(','), extra.join('; ')];
  });
  return textTable(['profile', 'status', 'version', 'language', 'topics', 'details'], rows);
}
