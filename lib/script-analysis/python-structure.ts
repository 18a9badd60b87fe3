// Python script → ScriptStructure. Top-level statements are the logical lines at column 0 with
// the indented lines under them; decorators attach to the def or class that follows.
import type { ScriptStructure } from '../../schemas/script-structure.js';
import { assembleStructure, matchingBracket, paramNames, type RawDefinition, type RawStatement } from './assemble-structure.js';
import type { CodeLine } from './code-model.js';
import { lexPython } from './python-lexer.js';
import { ScriptSyntaxError } from './source-text.js';

const PARAM_SEPARATORS = new Set([',']);

function definition(source: string, statement: CodeLine[], start: number): RawDefinition | null {
  const tokens = statement[0]!.tokens;
  const kwIndex = tokens[0]!.text === 'async' ? 1 : 0;
  const keyword = tokens[kwIndex];
  const name = tokens[kwIndex + 1];
  if (!keyword || !name || name.kind !== 'name' || (keyword.text !== 'def' && keyword.text !== 'class')) return null;
  let params: string[] = [];
  let afterParams = kwIndex + 2;
  if (tokens[afterParams]?.text === '(') {
    const close = matchingBracket(tokens, afterParams);
    if (keyword.text === 'def') params = paramNames(tokens.slice(afterParams + 1, close), PARAM_SEPARATORS);
    afterParams = close + 1;
  }
  let depth = 0;
  let colon = tokens.length - 1;
  for (let i = afterParams; i < tokens.length; i++) {
    const t = tokens[i]!.text;
    if (t === '(' || t === '[' || t === '{') depth++;
    else if (t === ')' || t === ']' || t === '}') depth--;
    else if (depth === 0 && t === ':') {
      colon = i;
      break;
    }
  }
  return {
    name: name.text,
    kind: keyword.text === 'def' ? 'function' : 'type',
    signature: source.slice(tokens[0]!.start, tokens[colon]!.end),
    params,
    start,
    end: statement[statement.length - 1]!.end,
  };
}

export function parsePythonScript(source: string): ScriptStructure {
  const lines = lexPython(source);
  const statements: CodeLine[][] = [];
  for (const line of lines) {
    if (line.indent === 0) statements.push([line]);
    else if (statements.length === 0) throw new ScriptSyntaxError('unexpected indentation before any statement', line.startLine);
    else statements[statements.length - 1]!.push(line);
  }

  const definitions: RawDefinition[] = [];
  const others: RawStatement[] = [];
  let decoratorStart: number | null = null;
  for (const statement of statements) {
    const header = statement[0]!;
    if (header.tokens[0]!.text === '@') {
      decoratorStart ??= header.start;
      continue;
    }
    const start = decoratorStart ?? header.start;
    decoratorStart = null;
    const def = definition(source, statement, start);
    if (def) definitions.push(def);
    else others.push({ start, end: statement[statement.length - 1]!.end });
  }
  if (decoratorStart !== null) {
    throw new ScriptSyntaxError('decorator not followed by a def or class', lines[lines.length - 1]!.startLine);
  }
  return assembleStructure(source, 'python', lines, definitions, others);
}
