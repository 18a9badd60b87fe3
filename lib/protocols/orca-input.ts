// Reads the text of one ORCA input into its parts: `!` keyword lines, `%` blocks with their settings,
// and the coordinate line (`* xyz <charge> <multiplicity>`). Lenient on purpose: it never throws, and
// anything it cannot place is kept in `unparsed` so a translation can list it.
//
// A block runs from its `%name` to the next line that starts a new `%` block, a `!` line or a `*`
// coordinate line. ORCA closes blocks with `end`, but sub-blocks (`newgto … end`, `NewBlock … end`,
// `Refs … end`) also end with `end`, and the published inputs are not consistent about it, so the
// `end` lines are not counted, only skipped.

export interface OrcaSetting {
  /** Lower case, without an array index (`OrbWin[0]` → `orbwin`). */
  key: string;
  /** As written (`NRoots`, `OrbWin[0]`). */
  written: string;
  value: string;
}

export interface OrcaBlock {
  /** Lower case, without `%`. */
  name: string;
  written: string;
  settings: OrcaSetting[];
  /** The block's text as written, from `%` to just before the next directive. */
  text: string;
}

export interface OrcaCoordinates {
  format: string;
  charge: string;
  multiplicity: string;
}

export interface OrcaInput {
  /** Every `!` keyword in order, as written (a prose condition in parentheses taken off, see `conditions`). */
  keywords: string[];
  /**
   * Prose written in parentheses after a keyword, e.g. `CPCM(if complex carries non-zero charge)`: a
   * condition on using the keyword, not more keywords. Keyed by the keyword as written in `keywords`.
   */
  conditions: Record<string, string>;
  blocks: OrcaBlock[];
  coordinates?: OrcaCoordinates;
  /** Non-empty lines outside any `!` line or block. */
  unparsed: string[];
}

const END = /^end$/i;

export function parseOrcaInput(input: string): OrcaInput {
  const out: OrcaInput = { keywords: [], conditions: {}, blocks: [], unparsed: [] };
  let block: { written: string; lines: string[]; first: string } | undefined;
  const close = () => {
    if (block) out.blocks.push(toBlock(block.written, block.first, block.lines));
    block = undefined;
  };
  for (const raw of input.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) continue;
    if (line.startsWith('!')) {
      close();
      for (const token of keywordTokens(line.slice(1))) {
        const prose = PROSE_CONDITION.exec(token);
        if (prose) {
          out.keywords.push(prose[1]!);
          out.conditions[prose[1]!] = prose[2]!.trim();
        } else out.keywords.push(token);
      }
    } else if (line.startsWith('%')) {
      close();
      const m = /^%\s*([A-Za-z_]\w*)\s*(.*)$/.exec(line);
      if (m) block = { written: m[1]!, first: m[2]!, lines: [] };
      else out.unparsed.push(line);
    } else if (line.startsWith('*')) {
      close();
      const c = /^\*\s*(\w+)\s+(\S+)\s+(\S+)/.exec(line);
      if (c && !out.coordinates) out.coordinates = { format: c[1]!, charge: c[2]!, multiplicity: c[3]! };
    } else if (block) {
      block.lines.push(line);
    } else {
      out.unparsed.push(line);
    }
  }
  close();
  return out;
}

/** `KEYWORD(words with spaces)`: parentheses holding more than one word are prose, not part of the keyword. */
const PROSE_CONDITION = /^([^(\s]+)\((\S+\s+[^)]*)\)$/;

/** A `!` line split on blanks, except inside parentheses (`CPCM(if complex carries non-zero charge)` is one token). */
function keywordTokens(text: string): string[] {
  const out: string[] = [];
  let token = '';
  let depth = 0;
  for (const ch of text) {
    if (/\s/.test(ch) && depth === 0) {
      if (token) out.push(token);
      token = '';
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')' && depth > 0) depth--;
    token += ch;
  }
  if (token) out.push(token);
  return out;
}

function toBlock(written: string, first: string, lines: readonly string[]): OrcaBlock {
  const settings: OrcaSetting[] = [];
  for (const line of [first, ...lines]) {
    const body = stripTrailingEnd(line.trim());
    if (!body || END.test(body)) continue;
    const last = settings[settings.length - 1];
    // "OrbWin[0] = A," continues on the next line: a value ending in a comma takes the next line.
    if (last && /,\s*$/.test(last.value)) {
      last.value = `${last.value} ${body}`.trim();
      continue;
    }
    const m = /^([A-Za-z_]\w*)(\[[^\]]*\])?\s*(?:=\s*)?(.*)$/.exec(body);
    if (!m) continue;
    const value = m[3]!.trim();
    settings.push({ key: m[1]!.toLowerCase(), written: `${m[1]}${m[2] ?? ''}`, value });
  }
  const text = [`%${written}${first ? ` ${first}` : ''}`, ...lines].join('\n');
  return { name: written.toLowerCase(), written, settings, text };
}

/** `nprocs 4 end` → `nprocs 4` (one-line blocks close on the same line). */
function stripTrailingEnd(line: string): string {
  return line.replace(/\s+end\s*$/i, '');
}
