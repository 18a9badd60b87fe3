// `physvec kb build [--force] [--json]` and `physvec kb search "<query>" [--toolchain p] [--k 5] [--json]`:
// the offline documentation corpus the agents retrieve from (paper, Appendix B).
// Exit codes (DESIGN §9): 0 success; 1 the build failed; 2 bad input (unknown toolchain, bad --k).
import type { Command } from 'commander';
import type { BuildKbOutcome } from '../../lib/kb/build.js';
import { KB_TOOLCHAINS, type KbHit } from '../../schemas/kb.js';

export interface KbCommandDeps {
  out?: (line: string) => void;
  err?: (line: string) => void;
}

interface BuildOptions {
  force?: boolean;
  json?: boolean;
}

interface SearchOptions {
  toolchain?: string;
  k?: string;
  json?: boolean;
}

export function register(program: Command, deps: KbCommandDeps = {}): void {
  const out = deps.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = deps.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  const kb = program.command('kb').description('offline knowledge base of package documentation (docstrings, signatures, manuals)');

  kb.command('build')
    .description(
      'introspect the installed toolchains (tenpy, netket, qiskit + qiskit-aer, pyscf) in the sandbox, read the manuals ' +
        '(data/kb/manual/ and $PHYSVEC_KB_MANUALS), chunk and index them; skipped when versions and manuals are unchanged',
    )
    .option('--force', 'rebuild even when nothing changed (also re-runs the introspection)')
    .option('--json', 'print one JSON document on stdout, nothing else')
    .action(async (opts: BuildOptions) => {
      // Imported here, not at the top: `--help` loads only the declarations.
      const [{ buildKb }, { introspectRunner }] = await Promise.all([import('../../lib/kb/build.js'), import('../../runners/kb/introspect-runners.js')]);
      const outcome = await buildKb({ force: opts.force === true, runner: introspectRunner, onProgress: opts.json ? undefined : (m) => err(`kb build: ${m}`) });
      if (opts.json) out(JSON.stringify(buildJson(outcome), null, 2));
      else for (const l of buildText(outcome)) out(l);
    });

  kb.command('search')
    .description('print the top hits for a query: qualified name, toolchain, score and a short snippet')
    .argument('<query>', 'an API question, a symbol name or an error message')
    .option('--toolchain <profile>', `only this toolchain (${KB_TOOLCHAINS.filter((t) => t !== 'general').join(', ')})`)
    .option('--k <n>', 'number of hits', '5')
    .option('--json', 'print one JSON document on stdout, nothing else')
    .action(async (query: string, opts: SearchOptions) => {
      const [{ loadKb, parseRetrieveArgs, searchLoaded }, { readManifest }] = await Promise.all([import('../../lib/kb/search.js'), import('../../lib/kb/store.js')]);
      const k = opts.k === undefined ? 5 : Number(opts.k);
      const args = parseRetrieveArgs({ query, toolchain: opts.toolchain, k: Number.isFinite(k) ? k : opts.k }, 'kb search options');
      if (!(await readManifest()) && !opts.json) err('kb search: the knowledge base is not built yet; building it now (once)…');
      const loaded = await loadKb({ autoBuild: true });
      const hits = searchLoaded(loaded, args);
      if (opts.json) {
        out(JSON.stringify({ query: args.query, toolchain: args.toolchain ?? null, k: args.k, builtAt: loaded.manifest.builtAt, hits }, null, 2));
      } else {
        for (const l of searchText(args.query, hits)) out(l);
      }
    });
}

function buildJson(o: BuildKbOutcome) {
  return { skipped: o.skipped, reason: o.reason, manifest: o.manifest };
}

function buildText(o: BuildKbOutcome): string[] {
  const m = o.manifest;
  const lines = [
    o.skipped ? `knowledge base up to date (${o.reason})` : `knowledge base built in ${(m.buildMs / 1000).toFixed(1)} s (${o.reason}); introspection via ${m.runner}`,
    `chunks: ${m.chunks.total} (${Object.entries(m.chunks.byToolchain).map(([t, n]) => `${t} ${n}`).join(', ')})`,
  ];
  for (const [name, t] of Object.entries(m.toolchains)) {
    const versions = Object.entries(t.packages).map(([d, v]) => `${d} ${v ?? 'not installed'}`).join(', ');
    const state = t.available ? `${t.symbols} symbols from ${t.modules} modules${t.truncated ? ' (truncated at the cap)' : ''}` : 'unavailable';
    lines.push(`  ${name.padEnd(8)} ${versions}: ${state}${t.error ? ` — ${t.error.split('\n')[0]}` : ''}`);
  }
  lines.push(`manuals: ${m.manuals.files.length} file(s)`);
  return lines;
}

function searchText(query: string, hits: KbHit[]): string[] {
  if (!hits.length) return [`no entries match "${query}"`];
  const lines: string[] = [];
  for (const h of hits) {
    lines.push(`${String(h.rank).padStart(2)}. ${h.qualifiedName}  [${h.toolchain} ${h.kind}]  score ${h.score.toFixed(1)}`);
    if (h.signature) lines.push(`    ${h.qualifiedName.split('.').at(-1)}${h.signature}`);
    lines.push(`    ${h.snippet}`);
  }
  return lines;
}
