// Python source → logical lines of tokens. Handles every string form (prefixes, triple quotes,
// f-string replacement fields with nested quotes), comments, backslash continuations and
// bracket continuations, which is all a structure parser needs from Python's grammar.
import type { CodeLine, CodeToken } from './code-model.js';
import { codeLine, LineIndex, ScriptSyntaxError } from './source-text.js';

const STRING_START = /([rRbBuUfF]{0,2})('''|"""|'|")/y;
const NAME = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;
const NUMBER =
  /(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?[jJ]?)/y;
const OPERATORS = [
  '**=', '//=', '>>=', '<<=', '...', '!=', '==', '<=', '>=', '->', ':=', '+=', '-=', '*=', '/=', '%=', '&=', '|=',
  '^=', '@=', '**', '//', '<<', '>>',
];
const VALID_PREFIXES = new Set(['', 'r', 'u', 'b', 'f', 'br', 'rb', 'fr', 'rf']);
const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

function matchAt(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(text);
}

class PythonLexer {
  private readonly index: LineIndex;
  constructor(private readonly src: string) {
    this.index = new LineIndex(src);
  }

  /** Index just past the closing quote of a string whose body starts at `pos`. */
  private scanString(pos: number, quote: string, isF: boolean, openedAt: number): number {
    const src = this.src;
    const triple = quote.length === 3;
    while (pos < src.length) {
      const c = src[pos]!;
      if (c === '\\') {
        pos += 2;
        continue;
      }
      if (!triple && c === '\n') break;
      if (src.startsWith(quote, pos)) return pos + quote.length;
      if (isF && c === '{') {
        if (src[pos + 1] === '{') {
          pos += 2;
          continue;
        }
        pos = this.scanReplacementField(pos + 1, openedAt);
        continue;
      }
      pos++;
    }
    throw new ScriptSyntaxError(`unterminated string literal (opened with ${quote})`, this.index.lineOf(openedAt));
  }

  /** Skips an f-string `{…}` field, which may hold strings with any quotes (Python ≥ 3.12). */
  private scanReplacementField(pos: number, openedAt: number): number {
    const src = this.src;
    let depth = 1;
    while (pos < src.length) {
      const c = src[pos]!;
      const str = matchAt(STRING_START, src, pos);
      if (str && VALID_PREFIXES.has(str[1]!.toLowerCase())) {
        pos = this.scanString(pos + str[0].length, str[2]!, str[1]!.toLowerCase().includes('f'), pos);
        continue;
      }
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') {
        depth--;
        if (depth === 0) return pos + 1;
      }
      pos++;
    }
    throw new ScriptSyntaxError('unterminated f-string replacement field', this.index.lineOf(openedAt));
  }

  lex(): CodeLine[] {
    const src = this.src;
    const lines: CodeLine[] = [];
    const brackets: Array<{ ch: string; at: number }> = [];
    let current: CodeToken[] = [];
    let pos = 0;
    const push = (kind: CodeToken['kind'], start: number, end: number) => {
      current.push({ kind, text: src.slice(start, end), start, end });
    };
    const finish = () => {
      if (current.length) lines.push(this.makeLine(current));
      current = [];
    };

    while (pos < src.length) {
      const c = src[pos]!;
      if (c === '\n') {
        if (brackets.length === 0) finish();
        pos++;
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
        pos++;
        continue;
      }
      if (c === '\\' && /^\r?\n/.test(src.slice(pos + 1, pos + 3))) {
        pos += src[pos + 1] === '\r' ? 3 : 2;
        continue;
      }
      if (c === '#') {
        const nl = src.indexOf('\n', pos);
        pos = nl === -1 ? src.length : nl;
        continue;
      }
      const str = matchAt(STRING_START, src, pos);
      if (str && VALID_PREFIXES.has(str[1]!.toLowerCase())) {
        const end = this.scanString(pos + str[0].length, str[2]!, str[1]!.toLowerCase().includes('f'), pos);
        push('string', pos, end);
        pos = end;
        continue;
      }
      if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[pos + 1] ?? ''))) {
        const m = matchAt(NUMBER, src, pos)!;
        push('number', pos, pos + m[0].length);
        pos += m[0].length;
        continue;
      }
      const name = matchAt(NAME, src, pos);
      if (name) {
        push('name', pos, pos + name[0].length);
        pos += name[0].length;
        continue;
      }
      const op = OPERATORS.find((o) => src.startsWith(o, pos)) ?? c;
      if (OPENERS[op]) brackets.push({ ch: op, at: pos });
      else if (op === ')' || op === ']' || op === '}') {
        const open = brackets.pop();
        if (!open || OPENERS[open.ch] !== op) {
          throw new ScriptSyntaxError(`unmatched '${op}'`, this.index.lineOf(pos));
        }
      }
      push('op', pos, pos + op.length);
      pos += op.length;
    }
    if (brackets.length) {
      const open = brackets[brackets.length - 1]!;
      throw new ScriptSyntaxError(`'${open.ch}' is never closed`, this.index.lineOf(open.at));
    }
    finish();
    return lines;
  }

  private makeLine(tokens: CodeToken[]): CodeLine {
    return codeLine(this.index, this.src, tokens, { before: [], after: [] });
  }
}

export function lexPython(source: string): CodeLine[] {
  return new PythonLexer(source).lex();
}
