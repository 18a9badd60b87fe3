// Where a function body calls (or mentions) other functions of the script.
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import type { CodeLine, CodeToken } from './code-model.js';

export interface CallSite {
  name: string;
  token: CodeToken;
  /** The statement holding the call. */
  line: CodeLine;
}

function isCall(tokens: CodeToken[], i: number, language: ScriptLanguage): boolean {
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  if (!next) return false;
  if (prev && (prev.text === '.' || prev.text === 'def' || prev.text === 'class' || prev.text === 'function')) return false;
  if (language === 'python') return next.text === '(';
  // Julia: `f(x)` or the broadcast `f.(x)`, with nothing between name and parenthesis.
  if (next.start !== tokens[i]!.end) return false;
  if (next.text === '(') return true;
  const after = tokens[i + 2];
  return next.text === '.' && after !== undefined && after.text === '(' && after.start === next.end;
}

function firstWord(line: CodeLine): string {
  const t = line.tokens.find((tok) => tok.kind !== 'macro');
  return t?.text ?? '';
}

/** `g(x) = …` — a Julia one-line method definition. */
export function isJuliaShortDefinition(tokens: CodeToken[]): boolean {
  let i = 0;
  while (tokens[i]?.kind === 'macro') i++;
  if (tokens[i]?.kind !== 'name' || tokens[i]!.blockRole) return false;
  while (tokens[i + 1]?.text === '.' && tokens[i + 2]?.kind === 'name') i += 2;
  if (tokens[i + 1]?.text !== '(' || tokens[i + 1]!.start !== tokens[i]!.end) return false;
  let depth = 0;
  let j = i + 1;
  for (; j < tokens.length; j++) {
    const t = tokens[j]!.text;
    if (t === '(' || t === '[' || t === '{') depth++;
    else if ((t === ')' || t === ']' || t === '}') && --depth === 0) break;
  }
  const after = tokens[j + 1];
  if (!after) return false;
  if (after.text === '=') return true;
  if (after.text !== '::' && after.text !== 'where') return false;
  depth = 0;
  for (let k = j + 1; k < tokens.length; k++) {
    const t = tokens[k]!.text;
    if (t === '(' || t === '[' || t === '{') depth++;
    else if (t === ')' || t === ']' || t === '}') depth--;
    else if (depth === 0 && t === '=') return true;
    else if (depth === 0 && t !== '::' && t !== 'where' && t !== '.' && t !== '<:' && t !== ',' && tokens[k]!.kind !== 'name') {
      return false;
    }
  }
  return false;
}

/**
 * Lines of a function body that belong to definitions nested inside it: their calls run only
 * if the nested function is called, so they are not steps of the enclosing function.
 */
function nestedDefinitionLines(lines: CodeLine[], language: ScriptLanguage): Set<CodeLine> {
  const nested = new Set<CodeLine>();
  if (language === 'julia') {
    // Lines before the header are a docstring; the header itself opens the outer function.
    const headerIndex = lines.findIndex((l) => l.blocksBefore.length === 0 && l.tokens.some((t) => t.blockRole === 'open'));
    lines.forEach((line, i) => {
      if (i <= headerIndex || headerIndex === -1) return;
      const innerBlocks = line.blocksBefore.slice(1);
      const insideNested = innerBlocks.some((b) => b.keyword === 'function' || b.keyword === 'macro');
      const opensNested = firstWord(line) === 'function' || firstWord(line) === 'macro';
      if (insideNested || opensNested || isJuliaShortDefinition(line.tokens)) nested.add(line);
    });
    return nested;
  }
  const headerIndex = lines.findIndex((l) => ['def', 'async', 'class'].includes(l.tokens[0]!.text));
  let skipAbove: number | null = null;
  let afterDecorator = false;
  for (let i = headerIndex + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const word = line.tokens[0]!.text;
    const startsDefinition = word === 'def' || word === 'class' || word === '@' || (word === 'async' && line.tokens[1]?.text === 'def');
    if (skipAbove !== null && (line.indent > skipAbove || (afterDecorator && line.indent === skipAbove && startsDefinition))) {
      nested.add(line);
      afterDecorator = afterDecorator && word === '@';
      continue;
    }
    skipAbove = null;
    if (startsDefinition) {
      nested.add(line);
      skipAbove = line.indent;
      afterDecorator = word === '@';
    }
  }
  return nested;
}

/** Calls to `names` in the function made of `lines` (its header first), in source order. */
export function callSites(
  lines: CodeLine[],
  names: ReadonlySet<string>,
  language: ScriptLanguage,
  { skipNestedDefinitions }: { skipNestedDefinitions: boolean },
): CallSite[] {
  const skip = skipNestedDefinitions ? nestedDefinitionLines(lines, language) : new Set<CodeLine>();
  const sites: CallSite[] = [];
  for (const line of lines) {
    if (skip.has(line)) continue;
    line.tokens.forEach((token, i) => {
      if (token.kind === 'name' && names.has(token.text) && isCall(line.tokens, i, language)) {
        sites.push({ name: token.text, token, line });
      }
    });
  }
  return sites;
}

/** Names from `names` that the lines mention at all (called, passed as a value, or a type). */
export function mentionedNames(lines: CodeLine[], names: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  for (const line of lines) {
    line.tokens.forEach((token, i) => {
      if (token.kind === 'name' && names.has(token.text) && line.tokens[i - 1]?.text !== '.') found.add(token.text);
    });
  }
  return found;
}

export function linesWithin(lines: CodeLine[], start: number, end: number): CodeLine[] {
  return lines.filter((l) => l.start >= start && l.end <= end);
}
