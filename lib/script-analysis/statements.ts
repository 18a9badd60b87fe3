// Top-level statements of a syntax tree and where their text ends, shared by both languages.
import type { CodeLine } from './code-model.js';
import type { SyntaxNode } from './grammars.js';

const COMMENTS = new Set(['comment', 'line_comment', 'block_comment']);

/** The root's statements in order; statements sharing a line (`a = 1; b = 2`) are grouped. */
export function topLevelStatements(root: SyntaxNode): SyntaxNode[][] {
  const groups: SyntaxNode[][] = [];
  let lastRow = -1;
  for (const child of root.namedChildren) {
    if (!child || COMMENTS.has(child.type)) continue;
    const last = groups[groups.length - 1];
    if (last && child.startPosition.row === lastRow) last.push(child);
    else groups.push([child]);
    lastRow = child.endPosition.row;
  }
  return groups;
}

/**
 * End of the last logical line that starts in [start, nodeEnd): the statement's own text with a
 * comment trailing its last line, but not comment lines after it that the grammar may attach.
 */
export function extentEnd(lines: CodeLine[], start: number, nodeEnd: number): number {
  let end = nodeEnd;
  for (const line of lines) {
    const first = line.tokens[0]!.start;
    if (first >= nodeEnd) break;
    if (first >= start) end = line.end;
  }
  return end;
}
