// The token-level view of a script, read off its syntax tree (code-lines.ts). Parsers and harness
// builders work on logical lines (a statement with its continuation lines), never on raw text,
// so strings and comments can't fool them.
export interface CodeToken {
  kind: 'name' | 'number' | 'string' | 'char' | 'op' | 'macro';
  text: string;
  start: number;
  end: number;
  /** Julia only: the name is a keyword that opens or closes a block, or starts a clause. */
  blockRole?: 'open' | 'close' | 'clause';
  /** The name is the function called by a call expression (`f(x)`, Julia `f.(x)`), not a definition's own name. */
  call?: boolean;
  /** The token sits inside a definition nested in a top-level statement (its calls run only if that is called). */
  nested?: boolean;
}

/** A Julia block opened by a keyword and still waiting for its `end`. */
export interface OpenBlock {
  keyword: string;
  /** The clause the block is in at this point: the keyword itself, or else/elseif/catch/finally. */
  clause: string;
  /** Leading whitespace of the line that opened it, to indent a synthesized `end`. */
  indentText: string;
  line: number;
}

export interface CodeLine {
  /** Significant tokens; comments are dropped. */
  tokens: CodeToken[];
  /** Column 0 of the first physical line. */
  start: number;
  /** End of the last physical line, trailing comment included, newline and blanks excluded. */
  end: number;
  startLine: number;
  endLine: number;
  indentText: string;
  indent: number;
  /** Julia only: blocks open before and after this line. */
  blocksBefore: OpenBlock[];
  blocksAfter: OpenBlock[];
}
