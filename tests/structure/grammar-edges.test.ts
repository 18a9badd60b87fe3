// Corners where a hand-written lexer goes wrong and the grammars must not: f-strings whose
// fields hold quotes, braces and `def`, multi-line strings holding code, `match` statements,
// nested defs and classes; Julia quoted symbols `:end`/`:begin` (misread by tree-sitter-julia
// 0.23 itself, see lib/script-analysis/julia-symbols.ts), `@doc` docstrings and stacked macros.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkStructure, inspectScript } from '../../lib/script-analysis/check-structure.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';

describe('grammar corners', () => {
  it('python: strings and f-strings holding code do not open definitions', () => {
    const script = [
      'import numpy as np',
      'TEMPLATE = """',
      'def site_fake(L):',
      '    return L',
      '"""',
      'def site_chain(L):',
      '    d = {"k": 1}',
      '    w = 4',
      "    label = f\"{{def}} {d['k']!r:>{w}} {'}'} {site_chain.__name__}\"",
      '    return list(range(L)), label',
      '',
      'class Params:',
      '    def site_method(self):',
      '        return site_chain(2)',
      '',
      'def run_chain(L):',
      '    def helper():',
      '        return site_chain(1)',
      '    match L:',
      '        case 0:',
      '            sites = site_chain(1)',
      '        case _:',
      '            sites = site_chain(L)',
      '    return sites',
      '',
      'def main():',
      '    run_chain(3)',
      '',
      'if __name__ == "__main__":',
      '    main()',
    ].join('\n');
    const s = parseScript(script, 'python');
    assert.deepEqual(s.elementFunctions.map((f) => [f.name, f.span.startLine, f.span.endLine]), [['site_chain', 6, 10]]);
    assert.deepEqual(s.otherFunctions.map((f) => [f.name, f.kind]), [['Params', 'type']]);
    assert.deepEqual(s.runFunctions[0]!.calls.map((c) => [c.name, c.line]), [['site_chain', 21], ['site_chain', 23]]);
    assert.match(s.preamble.source, /TEMPLATE = """\ndef site_fake/);
    assert.equal(s.entryPointCall?.span.startLine, 29);
  });

  it('julia: quoted :end and :begin leave the blocks around them intact', () => {
    const script = [
      '@doc "Sites of a chain." site_chain(L) = collect(1:L)',
      'function observable_edge(v, which)',
      '    if which == :end',
      '        return v[end]',
      '    elseif which == :begin',
      '        return v[begin]',
      '    end',
      '    return v[(begin + end) ÷ 2]',
      'end',
      '@inline @inbounds function run_chain(L)',
      '    v = site_chain(L)',
      '    return observable_edge(v, :end)',
      'end',
      'function main()',
      '    run_chain(4)',
      'end',
      'main()',
    ].join('\n');
    const s = parseScript(script, 'julia');
    assert.deepEqual(s.elementFunctions.map((f) => [f.name, f.span.startLine, f.span.endLine]), [
      ['site_chain', 1, 1],
      ['observable_edge', 2, 9],
    ]);
    assert.equal(s.runFunctions[0]!.span.startLine, 10);
    assert.deepEqual(s.runFunctions[0]!.calls.map((c) => c.name), ['site_chain', 'observable_edge']);
    assert.deepEqual(checkStructure(s), []);
  });

  it('julia: a real stray `end` is still a syntax error on its line', () => {
    const r = inspectScript('function site_a(L)\n    return L\nend\nend\n', 'julia');
    assert.deepEqual(r.problems.map((p) => [p.code, p.line]), [['PARSE_ERROR', 4]]);
  });
});
