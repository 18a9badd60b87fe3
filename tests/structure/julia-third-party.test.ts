// The Julia structure parser on code we did not write: files of ITensors.jl (Apache-2.0, copied
// unchanged under tests/fixtures/third-party/itensors) with docstrings, `@inline`-style macros,
// one-line `f(x) = …` methods, operator methods (`Base.:*`) and `function … end` blocks. With no
// Julia interpreter to ask, the oracle is the files' own layout: every line at column 0, outside
// a docstring, that starts a definition must be the header of exactly one parsed definition.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../../lib/paths.js';
import { allFunctions } from '../../lib/script-analysis/check-structure.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';

const dir = path.join(repoRoot, 'tests', 'fixtures', 'third-party', 'itensors');
const files = readdirSync(dir).filter((f) => f.endsWith('.jl'));

/** `function f`, `struct S`, `abstract type T`, `@m function f`, `f(x) = …`, `f(x)::T where T = …` at column 0. */
const HEADER = /^(?:@[\w.]+\s+)*(?:function\s|(?:mutable\s+)?struct\s|(?:abstract|primitive)\s+type\s|[^\s#"(][^\s(]*\(.*\)\s*(?:::\s*[\w{},. ]+?\s*)?(?:where\s.*?)?=(?![=>]))/;

function headerLines(source: string): number[] {
  const out: number[] = [];
  let inDocstring = false;
  source.split('\n').forEach((line, i) => {
    if (!inDocstring && HEADER.test(line)) out.push(i + 1);
    if ((line.split('"""').length - 1) % 2 === 1) inDocstring = !inDocstring;
  });
  return out;
}

describe('parseScript (julia) on ITensors.jl source files', () => {
  for (const file of files) {
    it(`${file}: one definition per header line, docstrings attached, spans ending at their end`, () => {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const structure = parseScript(source, 'julia');
      const defs = allFunctions(structure);
      // A documented definition starts at its docstring; its header is the line after the docstring.
      const headerOf = (d: (typeof defs)[number]) => {
        if (!d.source.startsWith('"')) return d.span.startLine;
        const close = d.source.startsWith('"""') ? d.source.indexOf('"""', 3) + 3 : d.source.indexOf('"', 1) + 1;
        return d.span.startLine + d.source.slice(0, close).split('\n').length;
      };
      assert.deepEqual(defs.map(headerOf).sort((a, b) => a - b), headerLines(source), file);
      for (const d of defs) {
        const header = source.split('\n')[headerOf(d) - 1]!;
        const documented = source.split('\n')[d.span.startLine - 1]!.startsWith('"');
        if (documented) assert.ok(d.source.startsWith('"""') || d.source.startsWith('"'), `${d.name}: docstring kept`);
        if (/^(?:@[\w.]+\s+)*function\s/.test(header) && !/\bend\s*$/.test(header)) {
          assert.match(d.source, /\nend$/, `${d.name} (line ${headerOf(d)}) ends with its own \`end\``);
        }
      }
    });
  }

  it('reads names, parameters and docstrings of global_variables.jl as written', () => {
    const structure = parseScript(readFileSync(path.join(dir, 'global_variables.jl'), 'utf8'), 'julia');
    const byName = new Map(allFunctions(structure).map((f) => [f.name, f]));
    const set = byName.get('set_warn_order')!;
    assert.equal(set.signature, 'function set_warn_order(N::Union{Int, Nothing})');
    assert.deepEqual(set.params, ['N']);
    assert.ok(set.source.startsWith('"""\n    ITensors.set_warn_order(N::Int)'));
    const get = byName.get('get_warn_order')!;
    assert.equal(get.signature, 'get_warn_order()');
    assert.deepEqual(get.params, []);
    assert.deepEqual(byName.get('reset_warn_order')!.callees, ['set_warn_order']);
  });
});
