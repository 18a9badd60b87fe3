// Offsets ↔ line numbers, and the error a parser raises when the text is not a well-formed script.
import { BadInputError } from '../errors.js';
import type { Span } from '../../schemas/script-structure.js';
import type { CodeLine, CodeToken, OpenBlock } from './code-model.js';

export class ScriptSyntaxError extends BadInputError {
  override name = 'ScriptSyntaxError';
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  /** 1-based line of an offset. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  lineStart(offset: number): number {
    return this.starts[this.lineOf(offset) - 1]!;
  }

  /** End of the physical line holding `offset`, without the newline and trailing blanks. */
  lineEndTrimmed(offset: number): number {
    const nl = this.text.indexOf('\n', offset);
    let end = nl === -1 ? this.text.length : nl;
    while (end > offset && /[ \t\r\f]/.test(this.text[end - 1]!)) end--;
    return end;
  }

  span(startOffset: number, endOffset: number): Span {
    const last = endOffset > startOffset ? endOffset - 1 : startOffset;
    return { startLine: this.lineOf(startOffset), endLine: this.lineOf(last), startOffset, endOffset };
  }
}

/** Width of leading whitespace with tabs to the next multiple of 8, as Python counts it. */
export function indentWidth(indentText: string): number {
  let w = 0;
  for (const ch of indentText) w = ch === '\t' ? (Math.floor(w / 8) + 1) * 8 : w + 1;
  return w;
}

/** The logical line made of `tokens` (non-empty), with its extent, line numbers and indentation. */
export function codeLine(index: LineIndex, src: string, tokens: CodeToken[], blocks: { before: OpenBlock[]; after: OpenBlock[] }): CodeLine {
  const first = tokens[0]!;
  const last = tokens[tokens.length - 1]!;
  const start = index.lineStart(first.start);
  const indentText = src.slice(start, first.start);
  const end = index.lineEndTrimmed(last.end);
  return {
    tokens,
    start,
    end,
    startLine: index.lineOf(first.start),
    endLine: index.lineOf(Math.max(end - 1, first.start)),
    indentText,
    indent: indentWidth(indentText),
    blocksBefore: blocks.before,
    blocksAfter: blocks.after,
  };
}
