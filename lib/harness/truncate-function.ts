// Cutting a function right after one of its statements, so an integration level or a chain of
// callers stops there: the kept text is verbatim, then a few synthesized statements (a return,
// a marker print), then whatever the language needs to stay well-formed (Julia `end`s, a
// Python `finally:` for a `try:` whose body was cut).
import type { ScriptLanguage, ScriptStructure, Span } from '../../schemas/script-structure.js';
import { linesWithin } from '../script-analysis/calls.js';
import type { CodeLine, CodeToken } from '../script-analysis/code-model.js';

const PYTHON_ASSIGN = new Set(['=', '+=', '-=', '*=', '/=', '//=', '%=', '**=', '>>=', '<<=', '&=', '|=', '^=', '@=']);
const JULIA_ASSIGN = new Set([
  '=', '+=', '-=', '*=', '/=', '^=', '%=', '÷=', '|=', '&=', '.=', '.+=', '.-=', '.*=', './=', '.^=', '//=', '<<=', '>>=', '>>>=',
]);
const PYTHON_NON_ASSIGNING = new Set([
  'for', 'while', 'if', 'elif', 'else', 'with', 'try', 'except', 'finally', 'return', 'yield', 'assert', 'del', 'raise',
  'async', 'match', 'case', 'print', 'global', 'nonlocal', 'pass', 'import', 'from',
]);
const BRACKET_OPEN = new Set(['(', '[', '{']);
const BRACKET_CLOSE = new Set([')', ']', '}']);

/** Indices of tokens outside any bracket of the statement. */
function topLevelIndices(tokens: CodeToken[]): number[] {
  const out: number[] = [];
  let depth = 0;
  tokens.forEach((t, i) => {
    if (BRACKET_OPEN.has(t.text)) depth++;
    else if (BRACKET_CLOSE.has(t.text)) depth--;
    else if (depth === 0) out.push(i);
  });
  return out;
}

/** Index of the first assignment operator outside brackets, if the statement is an assignment. */
export function assignmentIndex(line: CodeLine, language: ScriptLanguage): number | null {
  const assignOps = language === 'python' ? PYTHON_ASSIGN : JULIA_ASSIGN;
  const at = topLevelIndices(line.tokens).find((i) => assignOps.has(line.tokens[i]!.text));
  return at === undefined || at === 0 ? null : at;
}

/** `a, b = f(x)` → `a, b`; `x: T = …` → `x`; `E::Float64 = …` → `E`; no assignment → null. */
export function assignmentTargets(source: string, line: CodeLine, language: ScriptLanguage): string | null {
  let tokens = line.tokens;
  if (language === 'julia') {
    let i = 0;
    while (tokens[i]?.kind === 'macro' || ['local', 'global', 'const'].includes(tokens[i]?.text ?? '')) i++;
    tokens = tokens.slice(i);
    if (!tokens.length || tokens[0]!.blockRole || tokens[0]!.text === 'return') return null;
  } else if (PYTHON_NON_ASSIGNING.has(tokens[0]!.text) && tokens[1]?.text !== '=') return null;

  const assignOps = language === 'python' ? PYTHON_ASSIGN : JULIA_ASSIGN;
  const top = topLevelIndices(tokens);
  const assignAt = top.find((i) => assignOps.has(tokens[i]!.text));
  if (assignAt === undefined || assignAt === 0) return null;
  // Annotations: Python `x: T = v`, Julia `x::T = v` (per comma-separated target).
  const annotation = language === 'python' ? ':' : '::';
  const parts: string[] = [];
  let partStart = 0;
  const targetTop = top.filter((i) => i < assignAt);
  const flush = (end: number) => {
    const slice = tokens.slice(partStart, end);
    const cut = slice.findIndex((t, k) => t.text === annotation && targetTop.includes(partStart + k));
    const kept = cut === -1 ? slice : slice.slice(0, cut);
    if (kept.length) parts.push(source.slice(kept[0]!.start, kept[kept.length - 1]!.end));
  };
  for (const i of targetTop) {
    if (tokens[i]!.text === ',') {
      flush(i);
      partStart = i + 1;
    }
  }
  flush(assignAt);
  return parts.length ? parts.join(', ') : null;
}

/** True when the statement is a block header whose body follows it (`for …:` / `for …` without its `end`). */
function opensBlock(line: CodeLine, language: ScriptLanguage): boolean {
  if (language === 'julia') return line.blocksAfter.length > line.blocksBefore.length;
  return line.tokens[line.tokens.length - 1]!.text === ':';
}

/** The def/function line; decorators (Python) or a docstring (Julia) may come before it. */
function headerLineIndex(fnLines: CodeLine[], language: ScriptLanguage): number {
  if (language === 'python') return fnLines.findIndex((l) => l.tokens[0]!.text === 'def' || l.tokens[0]!.text === 'async');
  let last = 0;
  fnLines.forEach((l, i) => {
    if (l.blocksBefore.length === 0) last = i;
  });
  return last;
}

export interface Truncation {
  /** The function's new text. */
  text: string;
  /** False when the statement is the function's own header (a one-line definition): kept whole. */
  truncated: boolean;
}

/**
 * `fnSpan`'s text up to and including the statement that starts at `statementStart`, then
 * `tail(targets)` — one statement per entry, indented like the cut statement.
 */
export function truncateFunctionAfter(
  structure: ScriptStructure,
  allLines: CodeLine[],
  fnSpan: Span,
  statementStart: number,
  tail: (targets: string | null) => string[],
  /** Text that takes the statement's place (same indentation) instead of keeping it. */
  replacement?: string,
): Truncation {
  const { source, language } = structure;
  const fnLines = linesWithin(allLines, fnSpan.startOffset, fnSpan.endOffset);
  const at = fnLines.findIndex((l) => l.tokens[0]!.start === statementStart);
  if (at === -1) throw new Error(`no statement starts at offset ${statementStart} in the function at line ${fnSpan.startLine}`);
  const cut = fnLines[at]!;
  const headerIndex = headerLineIndex(fnLines, language);
  const isOwnHeader = at <= headerIndex || (language === 'julia' && cut.blocksAfter.length === 0);
  if (isOwnHeader) return { text: source.slice(fnSpan.startOffset, fnSpan.endOffset), truncated: false };

  const opens = replacement === undefined && opensBlock(cut, language);
  const next = fnLines[at + 1];
  const bodyIndent = opens
    ? next && next.indent > cut.indent
      ? next.indentText
      : `${cut.indentText}    `
    : cut.indentText;
  // A header's targets are not assigned yet where the body starts.
  const targets = opens || replacement !== undefined ? null : assignmentTargets(source, cut, language);
  const kept =
    replacement === undefined ? source.slice(fnSpan.startOffset, cut.end) : source.slice(fnSpan.startOffset, cut.start) + cut.indentText + replacement;
  // Anything after a kept `return` would never run.
  const endsInReturn = replacement === undefined && cut.tokens[0]!.text === 'return';
  const out = [kept, ...(endsInReturn ? [] : tail(targets).map((s) => bodyIndent + s))];

  if (language === 'julia') {
    // A replaced statement is a simple one: the blocks open after it are those open before it.
    const open = replacement === undefined ? cut.blocksAfter : cut.blocksBefore;
    for (let i = open.length - 1; i >= 0; i--) {
      const block = open[i]!;
      if (i > 0 && block.keyword === 'try' && block.clause === 'try') {
        // Without a catch, an error in the kept part must still surface.
        out.push(`${block.indentText}catch physvec_error`, `${block.indentText}    rethrow()`);
      }
      out.push(`${block.indentText}end`);
    }
  } else {
    // Enclosing compound statements are the nearest earlier lines with smaller indentation.
    let threshold = opens ? cut.indent + 1 : cut.indent;
    for (let i = at - (opens ? 0 : 1); i > headerIndex; i--) {
      const line = fnLines[i]!;
      if (line.indent >= threshold) continue;
      threshold = line.indent;
      if (line.tokens[0]!.text === 'try') out.push(`${line.indentText}finally:`, `${line.indentText}    pass`);
    }
  }
  return { text: out.join('\n'), truncated: true };
}
