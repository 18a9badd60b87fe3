// Where a function body calls (or mentions) other functions of the script. Which names are
// called, and which sit in nested definitions, the syntax tree told the tokens (code-lines.ts).
import type { CodeLine, CodeToken } from './code-model.js';

export interface CallSite {
  name: string;
  token: CodeToken;
  /** The statement holding the call. */
  line: CodeLine;
}

/**
 * Calls to `names` in the function or top-level statement made of `lines`, in source order.
 * With skipNestedDefinitions, calls inside a def/function nested in it are left out: they run
 * only if the nested function is called, so they are not steps of the enclosing function.
 */
export function callSites(lines: CodeLine[], names: ReadonlySet<string>, { skipNestedDefinitions }: { skipNestedDefinitions: boolean }): CallSite[] {
  const sites: CallSite[] = [];
  for (const line of lines) {
    for (const token of line.tokens) {
      if (token.call && names.has(token.text) && !(skipNestedDefinitions && token.nested)) sites.push({ name: token.text, token, line });
    }
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
