// Script-analysis benchmark (not a test): parse cost per script of the hand-written lexers
// (commit 0e045ba, extracted from git into a temporary tree) against the tree-sitter grammars now
// in lib/script-analysis, side by side on the same inputs, trials interleaved, medians; plus the
// one-off cost of loading the grammars and whether both produce the same structure.
//   node --import tsx scripts/bench-script-analysis.ts [--runs N]
import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, venvPython } from '../lib/paths.js';
import type { ScriptLanguage, ScriptStructure } from '../schemas/script-structure.js';
import { answerHelp, median } from './bench-support.js';

answerHelp(import.meta.url);

const BEFORE = '0e045ba';
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 15;
type Parse = (source: string, language: ScriptLanguage) => ScriptStructure;

function oldParser(): Promise<Parse> {
  const dir = mkdtempSync(path.join(tmpdir(), 'physvec-bench-structure-'));
  execSync(`git archive ${BEFORE} lib/script-analysis lib/errors.ts schemas/script-structure.ts | tar -x -C ${dir}`, { cwd: repoRoot });
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  return import(pathToFileURL(path.join(dir, 'lib/script-analysis/parse-script.ts')).href).then((m: { parseScript: Parse }) => m.parseScript);
}

function inputs(): Array<{ name: string; source: string; language: ScriptLanguage }> {
  const out: Array<{ name: string; source: string; language: ScriptLanguage }> = [];
  const add = (dir: string, names: string[]) => {
    for (const n of names) out.push({ name: n, source: readFileSync(path.join(dir, n), 'utf8'), language: n.endsWith('.jl') ? 'julia' : 'python' });
  };
  const fixtures = path.join(repoRoot, 'tests/fixtures/scripts');
  add(fixtures, readdirSync(fixtures).filter((n) => /\.(py|jl)$/.test(n)).sort());
  const itensors = path.join(repoRoot, 'tests/fixtures/third-party/itensors');
  add(itensors, readdirSync(itensors).filter((n) => n.endsWith('.jl')).sort());
  const site = execFileSync(venvPython, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], { encoding: 'utf8' }).trim();
  add(site, ['tenpy/algorithms/dmrg.py', 'qiskit/circuit/quantumcircuit.py']);
  return out;
}

function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}
/** The structure without its source text, so both sides compare on what they found. */
const shape = (s: ScriptStructure | string) => (typeof s === 'string' ? s : JSON.stringify({ ...s, source: undefined }));
const attempt = (parse: Parse, source: string, language: ScriptLanguage) => {
  try {
    return parse(source, language);
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
};

const loadStart = performance.now();
const { parseScript: newParse } = await import('../lib/script-analysis/parse-script.js');
const loadMs = performance.now() - loadStart;
const oldParse = await oldParser();

console.log(`# parse cost per script, median of ${runs} interleaved trials; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log(`# one-off: importing lib/script-analysis (web-tree-sitter init + both .wasm grammars) took ${loadMs.toFixed(0)} ms`);
console.log(`${'script'.padEnd(34)} ${'lines'.padStart(6)} ${'lexer ms'.padStart(9)} ${'grammar ms'.padStart(11)} ${'ratio'.padStart(6)}  same structure`);
for (const { name, source, language } of inputs()) {
  const before: number[] = [];
  const after: number[] = [];
  const o = attempt(oldParse, source, language);
  const n = attempt(newParse, source, language);
  for (let i = 0; i < 5; i++) {
    // JIT warm-up
    attempt(oldParse, source, language);
    attempt(newParse, source, language);
  }
  for (let i = 0; i < runs; i++) {
    before.push(time(() => attempt(oldParse, source, language)));
    after.push(time(() => attempt(newParse, source, language)));
  }
  const [b, a] = [median(before), median(after)];
  const same = shape(o) === shape(n) ? 'yes' : `NO (lexer: ${typeof o === 'string' ? o : 'parsed'}; grammar: ${typeof n === 'string' ? n : 'parsed'})`;
  console.log(`${name.padEnd(34)} ${String(source.split('\n').length).padStart(6)} ${b.toFixed(2).padStart(9)} ${a.toFixed(2).padStart(11)} ${(a / b).toFixed(2).padStart(6)}  ${same}`);
}
