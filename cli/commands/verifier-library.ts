// `physvec verifier-library build [--profile p] [--json]`: run every proposed background function's
// own check in the sandbox and index those that pass (paper, Appendix C).
// Exit codes (DESIGN §9): 0 all proposals passed (or could not be run here and are listed as
// unverified); 1 a proposal was rejected; 2 bad input (unknown profile).
import type { Command } from 'commander';
import type { BuildProgress, VerifierLibraryBuildReport } from '../verifier-library/build.js';
import { EXIT } from '../output.js';

export interface VerifierLibraryCommandDeps {
  out?: (line: string) => void;
  err?: (line: string) => void;
  setExitCode?: (code: number) => void;
}

export function register(program: Command, deps: VerifierLibraryCommandDeps = {}): void {
  const out = deps.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = deps.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  const setExitCode = deps.setExitCode ?? ((c: number) => (process.exitCode = c));
  const lib = program.command('verifier-library').description('background element functions for unit tests, verified in the sandbox');
  lib
    .command('build')
    .description('check every function in data/verifier-library/<profile>/ in the sandbox and write index.json with those that pass')
    .option('--profile <profile>', 'only this toolchain profile (tenpy, netket, qiskit, pyscf, itensors)')
    .option('--json', 'print one JSON document on stdout, nothing else')
    .action(async (opts: { profile?: string; json?: boolean }) => {
      const { buildVerifierLibrary } = await import('../verifier-library/build.js'); // not at the top: `--help` stays light
      const report = await buildVerifierLibrary({ profile: opts.profile, onProgress: opts.json ? undefined : (e) => err(progressLine(e)) });
      if (opts.json) out(JSON.stringify(report, null, 2));
      else for (const l of reportText(report)) out(l);
      setExitCode(report.ok ? EXIT.ok : EXIT.failed);
    });
}

function progressLine(e: BuildProgress): string {
  if (e.kind === 'profile') {
    const tc = e.toolchain.available ? `${e.toolchain.version ?? '?'}` : `${e.toolchain.state}: ${e.toolchain.reason ?? ''}`;
    return `verifier-library: ${e.profile} (${tc}): ${e.proposals} proposals`;
  }
  if (e.kind === 'kept') return `verifier-library: ${e.profile}: kept ${e.name} (${(e.durationMs / 1000).toFixed(1)} s)`;
  return `verifier-library: ${e.profile}: REJECTED ${e.name}: ${e.reason}`;
}

export function reportText(report: VerifierLibraryBuildReport): string[] {
  const lines: string[] = [];
  for (const p of report.profiles) {
    if (p.skipped) {
      lines.push(`${p.profile}: skipped (${p.skipped})`);
      continue;
    }
    const tc = p.toolchain.state === 'available' ? `verified with ${p.toolchain.version}` : `${p.toolchain.state}${p.toolchain.reason ? `: ${p.toolchain.reason}` : ''}`;
    const counts = [`${p.kept.length} kept`, `${p.rejected.length} rejected`];
    if (p.unverified.length) counts.push(`${p.unverified.length} unverified`);
    if (p.carriedOver.length) counts.push(`${p.carriedOver.length} carried over`);
    lines.push(`${p.profile} (${tc}): ${counts.join(', ')}${p.indexFile ? ` → ${p.indexFile}` : ''} [${(p.durationMs / 1000).toFixed(0)} s]`);
    for (const r of p.rejected) lines.push(`  rejected ${r.name} (${r.stage}): ${r.reason}`);
  }
  lines.push(report.ok ? 'all proposals passed or are listed as unverified' : 'some proposals were rejected (see above)');
  return lines;
}
