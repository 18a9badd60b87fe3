// Julia source → logical lines of tokens, with the block each line sits in. Block structure is
// tracked by `end` counting, which must ignore `end` in strings, comments (`#`, nested `#= =#`),
// quoted symbols (`:end`) and indexing (`a[end]`, `a[begin:end-1]`), and must not count the
// `for`/`if` of a comprehension or generator as blocks.
import type { CodeLine, CodeToken, OpenBlock } from './code-model.js';
import { codeLine, LineIndex, ScriptSyntaxError } from './source-text.js';

// `!` belongs to a name (`push!`) unless it starts `!=` (`a!=b` is a comparison).
const NAME = /[\p{L}\p{Nl}_](?:[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}′]|!(?!=))*/uy;
const MACRO = /@(?:\.|[\p{L}_][\p{L}\p{N}_!]*(?:\.[\p{L}_][\p{L}\p{N}_!]*)*)/uy;
const NUMBER =
  /(?:0x[0-9a-fA-F_]+|0b[01_]+|0o[0-7_]+|(?:\d[\d_]*(?:\.(?![.\p{L}_])[\d_]*)?|\.\d[\d_]*)(?:[eEf][+-]?\d+)?(?:im)?)/uy;
const OPERATORS = [
  '>>>=', '===', '!==', '...', '>>>', '.+=', '.-=', '.*=', './=', '.^=', '.==', '.!=', '.<=', '.>=', '//=', '<<=',
  '>>=', '::', '->', '=>', '==', '!=', '<=', '>=', '&&', '||', '+=', '-=', '*=', '/=', '^=', '%=', '÷=', '|=', '&=',
  '.=', '<:', '>:', '|>', '<|', '.+', '.-', '.*', './', '.^', '.<', '.>', '//', '<<', '>>',
];
const BLOCK_OPENERS = new Set(['function', 'macro', 'for', 'while', 'if', 'let', 'begin', 'do', 'try', 'quote', 'struct', 'module', 'baremodule']);
const CLAUSES = new Set(['else', 'elseif', 'catch', 'finally']);
const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
/** Operators after which a newline does not end the statement. */
const NON_CONTINUING = new Set(["'", '...', ';']);

interface Bracket {
  ch: string;
  at: number;
  /** Number of open blocks when the bracket opened: keywords at this depth are inside the bracket. */
  blockDepth: number;
  /** A comprehension `for` was seen directly inside, so a following `if` is its filter. */
  sawFor: boolean;
}

function matchAt(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(text);
}

const isIdentChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_!′]/u.test(c);

class JuliaLexer {
  private readonly index: LineIndex;
  private readonly lines: CodeLine[] = [];
  private readonly brackets: Bracket[] = [];
  private readonly blocks: OpenBlock[] = [];
  private current: CodeToken[] = [];
  private blocksAtLineStart: OpenBlock[] = [];

  constructor(private readonly src: string) {
    this.index = new LineIndex(src);
  }

  private fail(message: string, at: number): never {
    throw new ScriptSyntaxError(message, this.index.lineOf(at));
  }

  /** Index just past the closing delimiter; `raw` for prefixed (non-standard) literals. */
  private scanString(pos: number, delim: string, raw: boolean, openedAt: number): number {
    const src = this.src;
    while (pos < src.length) {
      const c = src[pos]!;
      if (c === '\\') {
        pos += 2;
        continue;
      }
      if (src.startsWith(delim, pos)) return pos + delim.length;
      if (!raw && c === '$' && src[pos + 1] === '(') {
        pos = this.scanInterpolation(pos + 2, openedAt);
        continue;
      }
      pos++;
    }
    this.fail(`unterminated string literal (opened with ${delim})`, openedAt);
  }

  private scanInterpolation(pos: number, openedAt: number): number {
    const src = this.src;
    let depth = 1;
    while (pos < src.length) {
      const c = src[pos]!;
      if (c === '"') {
        const delim = src.startsWith('"""', pos) ? '"""' : '"';
        pos = this.scanString(pos + delim.length, delim, isIdentChar(src[pos - 1]), pos);
        continue;
      }
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return pos + 1;
      pos++;
    }
    this.fail('unterminated $( ) interpolation', openedAt);
  }

  private scanChar(pos: number): number {
    const src = this.src;
    let p = pos + 1;
    while (p < src.length && src[p] !== '\n') {
      if (src[p] === '\\') p += 2;
      else if (src[p] === "'") return p + 1;
      else p++;
    }
    this.fail("unterminated character literal", pos);
  }

  private skipBlockComment(pos: number): number {
    const src = this.src;
    let depth = 0;
    let p = pos;
    while (p < src.length) {
      if (src.startsWith('#=', p)) {
        depth++;
        p += 2;
      } else if (src.startsWith('=#', p)) {
        depth--;
        p += 2;
        if (depth === 0) return p;
      } else p++;
    }
    this.fail('unterminated #= =# comment', pos);
  }

  private prevToken(back = 1): CodeToken | undefined {
    if (this.current.length >= back) return this.current[this.current.length - back];
    const line = this.lines[this.lines.length - 1];
    return line?.tokens[line.tokens.length - (back - this.current.length)];
  }

  private push(kind: CodeToken['kind'], start: number, end: number): CodeToken {
    if (this.current.length === 0) this.blocksAtLineStart = this.blocks.map((b) => ({ ...b }));
    const token: CodeToken = { kind, text: this.src.slice(start, end), start, end };
    this.current.push(token);
    return token;
  }

  /** `a[end]`, `a[begin:2]`: the innermost `[` was opened at the current block depth. */
  private inIndexing(): boolean {
    for (let i = this.brackets.length - 1; i >= 0; i--) {
      const b = this.brackets[i]!;
      if (b.blockDepth !== this.blocks.length) return false;
      if (b.ch === '[') return true;
    }
    return false;
  }

  /** `:end`, `:for` are symbols unless the colon is a range operator after a value. */
  private isQuotedSymbol(token: CodeToken): boolean {
    const colon = this.prevToken(2);
    if (!colon || colon.text !== ':' || colon.end !== token.start) return false;
    const before = this.prevToken(3);
    if (!before) return true;
    if (before.kind === 'number' || before.kind === 'string' || before.kind === 'char') return false;
    if (before.kind === 'name') return before.blockRole === 'open' || before.blockRole === 'clause';
    return !(before.text === ')' || before.text === ']' || before.text === '}' || before.text === "'");
  }

  /** Called right after `token` was pushed, so the token before it is prevToken(2). */
  private classifyName(token: CodeToken): void {
    const word = token.text;
    const prev = this.prevToken(2);
    if (!BLOCK_OPENERS.has(word) && !CLAUSES.has(word) && word !== 'end' && word !== 'abstract' && word !== 'primitive') {
      return;
    }
    // `x.end` is a field access, `:end` a symbol: not keywords.
    if (prev && prev.text === '.' && prev.end === token.start) return;
    if (this.isQuotedSymbol(token)) return;
    const innermost = this.brackets[this.brackets.length - 1];
    const directlyInBracket = innermost !== undefined && innermost.blockDepth === this.blocks.length;

    if (word === 'end') {
      if (this.inIndexing()) return;
      if (!this.blocks.pop()) this.fail('`end` without a matching block opener', token.start);
      token.blockRole = 'close';
      return;
    }
    if (CLAUSES.has(word)) {
      const top = this.blocks[this.blocks.length - 1];
      if (top && !directlyInBracket) {
        top.clause = word;
        token.blockRole = 'clause';
      }
      return;
    }
    if (word === 'begin' && this.inIndexing()) return;
    if (word === 'for' && directlyInBracket) {
      const before = this.prevToken(2);
      const startsBracketContent = before && (before.text === innermost.ch || before.text === ',' || before.text === ';');
      if (!startsBracketContent) {
        innermost.sawFor = true;
        return;
      }
    }
    if (word === 'if' && directlyInBracket && innermost.sawFor) return;
    if ((word === 'abstract' || word === 'primitive') && !matchAt(/\s+type\b/y, this.src, token.end)) return;
    token.blockRole = 'open';
    this.blocks.push({ keyword: word, clause: word, indentText: this.currentIndent(), line: this.index.lineOf(token.start) });
  }

  private currentIndent(): string {
    const first = this.current[0]!;
    return this.src.slice(this.index.lineStart(first.start), first.start);
  }

  private endsStatement(): boolean {
    if (this.brackets.length) return false;
    const last = this.current[this.current.length - 1];
    if (!last) return false;
    return !(last.kind === 'op' && !NON_CONTINUING.has(last.text) && !')]}'.includes(last.text));
  }

  private finishLine(): void {
    this.lines.push(codeLine(this.index, this.src, this.current, { before: this.blocksAtLineStart, after: this.blocks.map((b) => ({ ...b })) }));
    this.current = [];
  }

  lex(): CodeLine[] {
    const src = this.src;
    let pos = 0;
    while (pos < src.length) {
      const c = src[pos]!;
      if (c === '\n') {
        if (this.endsStatement()) this.finishLine();
        pos++;
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
        pos++;
        continue;
      }
      if (c === '#') {
        if (src[pos + 1] === '=') pos = this.skipBlockComment(pos);
        else {
          const nl = src.indexOf('\n', pos);
          pos = nl === -1 ? src.length : nl;
        }
        continue;
      }
      if (c === '"' || c === '`') {
        const delim = src.startsWith(c.repeat(3), pos) ? c.repeat(3) : c;
        // A literal glued to a name (r"…", raw"…", L"…") is a non-standard string: no interpolation.
        const prev = this.prevToken();
        const prefixed = prev !== undefined && prev.kind === 'name' && prev.end === pos;
        const start = prefixed ? prev.start : pos;
        if (prefixed) this.current.pop();
        const end = this.scanString(pos + delim.length, delim, prefixed, pos);
        this.push('string', start, end);
        pos = end;
        continue;
      }
      if (c === "'") {
        const before = src[pos - 1];
        const transpose = before !== undefined && (isIdentChar(before) || ")]}'.".includes(before));
        if (!transpose) {
          const end = this.scanChar(pos);
          this.push('char', pos, end);
          pos = end;
          continue;
        }
      }
      if (c === '@') {
        const m = matchAt(MACRO, src, pos);
        if (m) {
          this.push('macro', pos, pos + m[0].length);
          pos += m[0].length;
          continue;
        }
      }
      if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[pos + 1] ?? ''))) {
        const m = matchAt(NUMBER, src, pos)!;
        this.push('number', pos, pos + m[0].length);
        pos += m[0].length;
        continue;
      }
      const name = matchAt(NAME, src, pos);
      if (name) {
        const token = this.push('name', pos, pos + name[0].length);
        this.classifyName(token);
        pos += name[0].length;
        continue;
      }
      const op = OPERATORS.find((o) => src.startsWith(o, pos)) ?? String.fromCodePoint(src.codePointAt(pos)!);
      this.push('op', pos, pos + op.length);
      if (OPENERS[op]) this.brackets.push({ ch: op, at: pos, blockDepth: this.blocks.length, sawFor: false });
      else if (op === ')' || op === ']' || op === '}') {
        const open = this.brackets.pop();
        if (!open || OPENERS[open.ch] !== op) this.fail(`unmatched '${op}'`, pos);
        if (open.blockDepth !== this.blocks.length) {
          const block = this.blocks[this.blocks.length - 1]!;
          this.fail(`'${op}' closes a bracket while \`${block.keyword}\` (line ${block.line}) is still open`, pos);
        }
      }
      pos += op.length;
    }
    if (this.current.length) this.finishLine();
    if (this.brackets.length) {
      const open = this.brackets[this.brackets.length - 1]!;
      this.fail(`'${open.ch}' is never closed`, open.at);
    }
    if (this.blocks.length) {
      const open = this.blocks[this.blocks.length - 1]!;
      throw new ScriptSyntaxError(`\`${open.keyword}\` is never closed by \`end\``, open.line);
    }
    return this.lines;
  }
}

export function lexJulia(source: string): CodeLine[] {
  return new JuliaLexer(source).lex();
}
