// Plain-text tables for the terminal through cli-table3, in the one style every verb prints: no
// borders, two spaces between columns, an optional dashed rule under the header, no trailing blanks.
import Table from 'cli-table3';

export interface TextTableOptions {
  /** Per column; left unless said. */
  align?: readonly ('left' | 'right')[];
  /** A row of dashes under the header. */
  rule?: boolean;
}

const NONE = { top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '', left: '', 'left-mid': '', right: '', 'right-mid': '', middle: '  ' };

export function textTable(head: readonly string[], rows: readonly (readonly string[])[], opts: TextTableOptions = {}): string[] {
  const table = new Table({
    head: [...head],
    chars: { ...NONE, mid: opts.rule ? '-' : '', 'mid-mid': opts.rule ? '  ' : '' },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    ...(opts.align ? { colAligns: [...opts.align] } : {}),
  });
  table.push(...rows.map((r) => [...r]));
  return table.toString().split('\n').map((l) => l.trimEnd());
}
