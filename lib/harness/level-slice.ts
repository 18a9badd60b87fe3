// The dependency slice of an integration level (issue 27.3): in a caller on the chain main → … →
// run_ function, the statements before its call to the next link are kept only when that call
// depends on them. Plotting, printing and runs of other run_/item_ functions whose results the call
// does not need are dropped, so a level runs what its run_ function's result depends on and its
// failure is the run_ function's own first failure, not an unrelated run's. What is dropped is
// decided statement by statement from the structure parser's tokens, walking backwards from the call
// (a backward slice over names): conservative where it cannot see — library calls made for their
// effect (seeds, directories) and anything a `global` statement names are kept.
import type { ScriptStructure } from '../../schemas/script-structure.js';
import { roleOf } from '../script-analysis/categories.js';
import { allFunctions } from '../script-analysis/check-structure.js';
import { linesWithin } from '../script-analysis/calls.js';
import type { CodeLine } from '../script-analysis/code-model.js';
import { assignmentIndex, assignmentTargets } from './truncate-function.js';

/** An edit of a caller's text, offsets relative to the caller's start. */
export interface CallerDrop {
  start: number;
  end: number;
  text: string;
}

/** A statement of the caller's body with the lines nested in it (a compound statement's whole block). */
interface Group {
  lines: CodeLine[];
}

const PY_CONTINUATION = new Set(['else', 'elif', 'except', 'finally']);
const ALWAYS_KEPT = new Set(['import', 'from', 'global', 'nonlocal', 'using']);
const OUTPUT_CALLS = new Set(['print', 'println', 'display', '@printf', '@show']);

function depthOf(line: CodeLine, language: ScriptStructure['language']): number {
  return language === 'python' ? line.indent : line.blocksBefore.length;
}

/** The caller's body as top-level statements (each with its nested lines), header lines excluded. */
function bodyGroups(own: CodeLine[], language: ScriptStructure['language']): Group[] {
  const header = own.findIndex((l) => ['def', 'function'].includes(l.tokens[0]?.text ?? '') || (l.tokens[0]?.text === 'async' && l.tokens[1]?.text === 'def'));
  const body = own.slice(header + 1);
  if (!body.length) return [];
  const top = depthOf(body[0]!, language);
  const groups: Group[] = [];
  for (const line of body) {
    const d = depthOf(line, language);
    const continues = d > top || (language === 'python' && PY_CONTINUATION.has(line.tokens[0]?.text ?? '')) || (language === 'julia' && line.tokens[0]?.text === 'end' && d === top);
    if (continues && groups.length) groups[groups.length - 1]!.lines.push(line);
    else groups.push({ lines: [line] });
  }
  return groups;
}

function names(lines: CodeLine[]): Set<string> {
  const out = new Set<string>();
  for (const l of lines) l.tokens.forEach((t, i) => t.kind === 'name' && l.tokens[i - 1]?.text !== '.' && out.add(t.text));
  return out;
}

/** Names a statement may set: assignment targets, a mutated receiver (`x.append(…)`, `x[i] = …`), loop and `as` targets. */
function assigned(source: string, g: Group, language: ScriptStructure['language']): Set<string> {
  const out = new Set<string>();
  const add = (text: string | null) => (text ?? '').split(/[^\p{L}\p{N}_!]+/u).filter(Boolean).forEach((n) => out.add(n));
  for (const l of g.lines) {
    if (assignmentIndex(l, language) !== null) add(assignmentTargets(source, l, language));
    const [first, second] = l.tokens;
    if (first?.kind === 'name' && (second?.text === '.' || second?.text === '[')) out.add(first.text);
    if (l.tokens.some((t) => t.text === 'for' || t.text === 'as')) for (const n of names([l])) out.add(n);
  }
  return out;
}

/**
 * Edits that replace, in `caller`, the statements before `cutStart` that the call to `keep` does
 * not depend on and that run something the level does not need (another run_/item_ function, a
 * plot_ function, a print), with a no-op.
 */
export function sliceDrops(
  structure: ScriptStructure,
  lines: CodeLine[],
  caller: { span: { startOffset: number; endOffset: number } },
  cutStart: number,
  keep: string,
): CallerDrop[] {
  const { language, source } = structure;
  const scriptFunctions = new Set(allFunctions(structure).map((f) => f.name));
  // Runs a level does not need: other run_/item_ functions and plotting (a helper's call is kept: it may set state).
  const unneededRun = (name: string) => {
    if (name === keep || !scriptFunctions.has(name)) return false;
    const role = roleOf(name);
    return role.kind === 'run' || (role.kind === 'element' && (role.category === 'item' || role.category === 'plot'));
  };
  const own = linesWithin(lines, caller.span.startOffset, caller.span.endOffset);
  const groups = bodyGroups(own, language);
  const cutAt = groups.findIndex((g) => g.lines.some((l) => l.tokens[0]!.start === cutStart));
  if (cutAt <= 0) return [];
  const cutGroup = groups[cutAt]!;
  const needed = names(cutGroup.lines.filter((l) => l.start <= cutStart));
  for (const g of groups) if (g.lines[0]!.tokens[0]!.text === 'global') for (const n of names(g.lines)) needed.add(n);

  const drops: CallerDrop[] = [];
  for (const g of groups.slice(0, cutAt).reverse()) {
    const first = g.lines[0]!.tokens[0]!;
    const calls = g.lines.flatMap((l) => l.tokens.filter((t) => t.call && !t.nested).map((t) => t.text));
    const sets = assigned(source, g, language);
    const setsNeeded = [...sets].some((n) => needed.has(n));
    const runsUnneeded = calls.some((c) => unneededRun(c) || OUTPUT_CALLS.has(c));
    const simple = g.lines.length === 1;
    const pureAssignment = simple && assignmentIndex(g.lines[0]!, language) !== null;
    const droppable = !ALWAYS_KEPT.has(first.text) && !setsNeeded && (runsUnneeded || pureAssignment || first.text === 'assert');
    if (droppable) {
      const last = g.lines[g.lines.length - 1]!;
      drops.push({ start: first.start - caller.span.startOffset, end: last.end - caller.span.startOffset, text: language === 'python' ? 'pass' : 'nothing' });
      continue;
    }
    for (const n of names(g.lines)) needed.add(n);
  }
  return drops;
}
