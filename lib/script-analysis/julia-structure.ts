// Julia script → ScriptStructure. A top-level statement runs from a line outside every block to
// the line that closes the last block it opened. `function … end`, one-line `f(x) = …`
// methods and struct/abstract type definitions are definitions; a docstring directly above a
// definition belongs to it.
import type { ScriptStructure } from '../../schemas/script-structure.js';
import { assembleStructure, matchingBracket, paramNames, type RawDefinition, type RawStatement } from './assemble-structure.js';
import { isJuliaShortDefinition } from './calls.js';
import type { CodeLine, CodeToken } from './code-model.js';
import { lexJulia } from './julia-lexer.js';

const PARAM_SEPARATORS = new Set([',', ';']);

/** `Base.show` from the tokens starting at `i`; returns the name and the index after it. */
function dottedName(tokens: CodeToken[], i: number): { name: string; next: number } | null {
  if (tokens[i]?.kind !== 'name' || tokens[i]!.blockRole) return null;
  let name = tokens[i]!.text;
  let next = i + 1;
  while (tokens[next]?.text === '.' && tokens[next + 1]?.kind === 'name') {
    name += `.${tokens[next + 1]!.text}`;
    next += 2;
  }
  return { name, next };
}

function paramsFrom(tokens: CodeToken[], i: number): { params: string[]; close: number } | null {
  if (tokens[i]?.text === '{') i = matchingBracket(tokens, i) + 1;
  if (tokens[i]?.text !== '(') return null;
  const close = matchingBracket(tokens, i);
  return { params: paramNames(tokens.slice(i + 1, close), PARAM_SEPARATORS), close };
}

function definition(source: string, statement: CodeLine[]): Omit<RawDefinition, 'start' | 'end'> | null {
  const tokens = statement[0]!.tokens;
  let i = 0;
  while (tokens[i]?.kind === 'macro') i++;
  const head = tokens[i];
  if (!head) return null;

  if (head.text === 'function' && head.blockRole === 'open') {
    const named = dottedName(tokens, i + 1);
    if (!named) return null; // anonymous `function (x) … end`
    const p = paramsFrom(tokens, named.next);
    const signatureEnd = statement.length > 1 || !p ? tokens[tokens.length - 1]!.end : tokens[p.close]!.end;
    return { name: named.name, kind: 'function', signature: source.slice(head.start, signatureEnd), params: p?.params ?? [] };
  }

  const typeKeyword = tokens.findIndex(
    (t, k) => k >= i && k <= i + 1 && t.blockRole === 'open' && (t.text === 'struct' || t.text === 'abstract' || t.text === 'primitive'),
  );
  if (typeKeyword !== -1) {
    const nameIndex = tokens[typeKeyword]!.text === 'struct' ? typeKeyword + 1 : typeKeyword + 2;
    const name = tokens[nameIndex];
    if (!name || name.kind !== 'name') return null;
    const firstLine = statement[0]!;
    return { name: name.text, kind: 'type', signature: source.slice(head.start, firstLine.tokens[firstLine.tokens.length - 1]!.end), params: [] };
  }

  if (statement.length === 1 && isJuliaShortDefinition(tokens)) {
    const named = dottedName(tokens, i)!;
    const p = paramsFrom(tokens, named.next);
    const assign = tokens.findIndex((t, k) => k > (p?.close ?? named.next) && t.text === '=');
    return { name: named.name, kind: 'function', signature: source.slice(head.start, tokens[assign]!.start).trimEnd(), params: p?.params ?? [] };
  }
  return null;
}

function isDocstring(statement: CodeLine[]): boolean {
  const tokens = statement[0]!.tokens.filter((t) => !(t.kind === 'macro' && t.text === '@doc'));
  return statement.length === 1 && tokens.length === 1 && tokens[0]!.kind === 'string';
}

export function parseJuliaScript(source: string): ScriptStructure {
  const lines = lexJulia(source);
  const statements: CodeLine[][] = [];
  for (const line of lines) {
    const continues = statements.length > 0 && line.blocksBefore.length > 0;
    if (continues) statements[statements.length - 1]!.push(line);
    else statements.push([line]);
  }

  const definitions: RawDefinition[] = [];
  const others: RawStatement[] = [];
  statements.forEach((statement, k) => {
    const def = definition(source, statement);
    const end = statement[statement.length - 1]!.end;
    if (!def) {
      const next = statements[k + 1];
      const documentsNext = isDocstring(statement) && next && next[0]!.startLine === statement[0]!.endLine + 1 && definition(source, next);
      if (!documentsNext) others.push({ start: statement[0]!.start, end });
      return;
    }
    const previous = statements[k - 1];
    const documented = previous && isDocstring(previous) && previous[0]!.endLine + 1 === statement[0]!.startLine;
    definitions.push({ ...def, start: documented ? previous[0]!.start : statement[0]!.start, end });
  });
  return assembleStructure(source, 'julia', lines, definitions, others);
}
