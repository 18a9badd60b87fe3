// Integration levels of a run_ function (paper, Supplemental Material: "Integration test").
// Level k keeps the run_ function up to its k-th element-call statement and returns what that
// statement assigned (the last level keeps it whole); main (and any item_ function between main and the run_ function) is cut
// right after it calls the next link of the chain, with main's own parameters, and main prints
// a success marker; the statements before that call are cut to what the call depends on (plotting,
// prints and other run_/item_ runs it does not need are dropped: level-slice.ts), so a level runs its
// own element calls and their inputs only. Everything else in the script is kept byte for byte.
import { BadInputError } from '../errors.js';
import type { IntegrationLevel, RunFunction, ScriptStructure } from '../../schemas/script-structure.js';
import { callSites, linesWithin } from '../script-analysis/calls.js';
import { matchingBracket } from '../script-analysis/assemble-structure.js';
import { allFunctions } from '../script-analysis/check-structure.js';
import type { CodeLine } from '../script-analysis/code-model.js';
import { lexScript } from '../script-analysis/lex-script.js';
import { integrationLevelFileName } from './file-names.js';
import { LEVEL_OK_MARKER } from '../../schemas/script-markers.js';
import { sliceDrops } from './level-slice.js';
import { applyEdits, type SourceEdit, withEntryCall } from './source-edits.js';
import { assignmentIndex, truncateFunctionAfter } from './truncate-function.js';

export function levelSuccessMarker(level: number): string {
  return `${LEVEL_OK_MARKER} ${level}`;
}

/** Shortest call path main → … → target, through functions of the script. */
function callChain(structure: ScriptStructure, target: string): string[] | null {
  const callees = new Map(allFunctions(structure).map((f) => [f.name, f.callees]));
  const previous = new Map<string, string>();
  const queue = ['main'];
  const seen = new Set(queue);
  while (queue.length) {
    const name = queue.shift()!;
    if (name === target) {
      const path = [name];
      while (previous.has(path[0]!)) path.unshift(previous.get(path[0]!)!);
      return path;
    }
    for (const next of callees.get(name) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      previous.set(next, name);
      queue.push(next);
    }
  }
  return null;
}

/**
 * `x, y = callee(args)` (or a bare `callee(args)`) → `callee(args)`. A caller in the chain then
 * hands the truncated result straight back instead of unpacking it as if it were complete.
 * Null when the call is buried in a larger expression (a comprehension, `append(…)`), which is
 * then kept as written.
 */
function directCall(source: string, line: CodeLine, callee: string, language: ScriptStructure['language']): string | null {
  const tokens = line.tokens;
  const assign = assignmentIndex(line, language);
  const first = assign === null ? 0 : assign + 1;
  if (tokens[first]?.text !== callee || tokens[first + 1]?.text !== '(') return null;
  const close = matchingBracket(tokens, first + 1);
  if (close !== tokens.length - 1) return null;
  return source.slice(tokens[first]!.start, tokens[close]!.end);
}

function returnStatement(targets: string | null, language: ScriptStructure['language']): string {
  return `return ${targets ?? (language === 'python' ? 'None' : 'nothing')}`;
}

/** Statements of the run_ function that call element functions, in order; several calls in one statement are one step. */
function callStatements(run: RunFunction): Array<{ start: number; names: string[] }> {
  const steps: Array<{ start: number; names: string[] }> = [];
  for (const call of run.calls) {
    const last = steps[steps.length - 1];
    if (last && last.start === call.statementSpan.startOffset) last.names.push(call.name);
    else steps.push({ start: call.statementSpan.startOffset, names: [call.name] });
  }
  return steps;
}

/** Applies offset edits (relative to the text's start, not overlapping) to a function's text. */
function editText(text: string, edits: { start: number; end: number; text: string }[]): string {
  return [...edits].sort((a, b) => b.start - a.start).reduce((acc, e) => acc.slice(0, e.start) + e.text + acc.slice(e.end), text);
}

/**
 * `slice: false` keeps every statement of the callers before their call (what the full script runs):
 * the rebuild of a level whose slice failed although the full script ran (the slice's fault).
 */
export function buildIntegrationLevels(structure: ScriptStructure, runFunctionName: string, opts: { slice?: boolean } = {}): IntegrationLevel[] {
  const { language } = structure;
  const run = structure.runFunctions.find((r) => r.name === runFunctionName);
  if (!run) {
    const known = structure.runFunctions.map((r) => r.name).join(', ') || 'none';
    throw new BadInputError(`no run_ function named \`${runFunctionName}\` in the script (run_ functions: ${known})`);
  }
  const steps = callStatements(run);
  if (steps.length === 0) throw new BadInputError(`\`${run.name}\` calls no element function, so it has no integration levels`);
  const chain = structure.main ? callChain(structure, run.name) : null;
  if (!chain) {
    throw new BadInputError(
      `\`${run.name}\` is not called from \`main\` (directly or through item_ functions), so its levels cannot reuse main's parameters`,
    );
  }
  const lines = lexScript(structure.source, language);
  const byName = new Map(allFunctions(structure).map((f) => [f.name, f]));

  // Callers in the chain are cut after their call to the next link; the same for every level
  // except main's marker.
  const callerCut = (caller: string, callee: string) => {
    const fn = byName.get(caller)!;
    const site = callSites(linesWithin(lines, fn.span.startOffset, fn.span.endOffset), new Set([callee]), {
      skipNestedDefinitions: true,
    })[0];
    if (!site) throw new BadInputError(`\`${caller}\` calls \`${callee}\` only inside a nested definition; call it directly`);
    const tokens = site.line.tokens;
    const call = directCall(structure.source, site.line, callee, language);
    // main must go on to print the marker, so its `return expr` becomes the bare expression.
    const unreturned = caller === 'main' && tokens[0]!.text === 'return' && tokens[1] ? structure.source.slice(tokens[1].start, site.line.end) : null;
    return { span: fn.span, start: tokens[0]!.start, call: call ?? unreturned, drops: opts.slice === false ? [] : sliceDrops(structure, lines, fn, tokens[0]!.start, callee) };
  };
  const intermediateEdits: SourceEdit[] = chain.slice(1, -1).map((caller, i) => {
    const cut = callerCut(caller, chain[i + 2]!);
    const { text } = cut.call !== null
      ? truncateFunctionAfter(structure, lines, cut.span, cut.start, () => [], `return ${cut.call}`)
      : truncateFunctionAfter(structure, lines, cut.span, cut.start, (t) => [returnStatement(t, language)]);
    return { start: cut.span.startOffset, end: cut.span.endOffset, text: editText(text, cut.drops) };
  });
  const mainCut = callerCut('main', chain[1]!);
  if (!truncateFunctionAfter(structure, lines, mainCut.span, mainCut.start, () => []).truncated) {
    throw new BadInputError('`main` is a one-line definition; write it as a block so a level can stop after its call');
  }

  const soFar: string[] = [];
  return steps.map((step, i) => {
    const level = i + 1;
    for (const name of step.names) if (!soFar.includes(name)) soFar.push(name);
    const marker = levelSuccessMarker(level);
    const printMarker = language === 'python' ? `print("${marker}", flush=True)` : `println("${marker}")`;
    const mainText = editText(
      truncateFunctionAfter(
        structure,
        lines,
        mainCut.span,
        mainCut.start,
        () => [printMarker, language === 'python' ? 'return' : 'return nothing'],
        mainCut.call ?? undefined,
      ).text,
      mainCut.drops,
    );
    // The last level is the complete assembly: the run_ function as written, its own return included.
    const runText =
      level === steps.length
        ? run.source
        : truncateFunctionAfter(structure, lines, run.span, step.start, (t) => [returnStatement(t, language)]).text;
    const edits: SourceEdit[] = [
      { start: run.span.startOffset, end: run.span.endOffset, text: runText },
      { start: mainCut.span.startOffset, end: mainCut.span.endOffset, text: mainText },
      ...intermediateEdits,
    ];
    return {
      runFunction: run.name,
      level,
      totalLevels: steps.length,
      introduces: [...step.names],
      elementFunctionsSoFar: [...soFar],
      successMarker: marker,
      fileName: integrationLevelFileName(run.name, level, language),
      source: withEntryCall(applyEdits(structure.source, edits), structure.entryPointCall !== null, language),
    };
  });
}
