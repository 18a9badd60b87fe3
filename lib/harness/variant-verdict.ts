// Whose fault a failed variant run is (assertion or convergence variant: the script with only main
// replaced by an LLM writer). The innermost traceback frame in the variant's own file tells: inside
// the replacement main (or at the entry-point call) → the writer's code failed, which says nothing
// about the script; inside an element, run_ or helper function, or the script's top-level code → the
// script failed. Library frames below say what failed, not whose fault. No frame in the file (killed,
// timed out, no traceback) → the script's, as before: nothing shows the variant did it.
import { framesIn, tracebackForWriter, tracebackFrames } from './traceback.js';
import { lastLines } from '../verification/suspects.js';
import type { ScriptStructure } from '../../schemas/script-structure.js';

/** Where a variant's own code is, in the variant file that ran (1-based, inclusive lines). */
export interface VariantLines {
  case: string;
  file: string;
  main: { startLine: number; endLine: number };
  /** The `if __name__ == "__main__": main()` / `main()` statement, when the script has one. */
  entry?: { startLine: number; endLine: number };
}

export type VariantFailure = { fault: 'variant'; where: string } | { fault: 'script' };

export function variantFailure(lines: VariantLines, run: { exitCode: number | null; timedOut: boolean; stderrTail: string }): VariantFailure {
  if (run.exitCode === 0 || run.timedOut) return { fault: 'script' };
  const frames = framesIn(tracebackFrames(run.stderrTail), lines.file);
  const innermost = frames[frames.length - 1];
  if (!innermost) return { fault: 'script' };
  const inside = (r?: { startLine: number; endLine: number }) => !!r && innermost.line >= r.startLine && innermost.line <= r.endLine;
  if (inside(lines.main)) return { fault: 'variant', where: `the variant's main (line ${innermost.line - lines.main.startLine + 1} of it)` };
  if (inside(lines.entry)) return { fault: 'variant', where: 'the call of the variant\'s main' };
  return { fault: 'script' };
}

/** Where the replacement main (and its entry-point call) sit in a parsed variant file; undefined without a main. */
export function variantLines(caseId: string, file: string, variant: Pick<ScriptStructure, 'main' | 'entryPointCall'>): VariantLines | undefined {
  if (!variant.main) return undefined;
  const span = (s: { startLine: number; endLine: number }) => ({ startLine: s.startLine, endLine: s.endLine });
  return { case: caseId, file, main: span(variant.main.span), ...(variant.entryPointCall ? { entry: span(variant.entryPointCall.span) } : {}) };
}

/** Why a variant failed in its own code, for the report: where, the exit, the traceback's last lines. */
export function variantFaultReason(where: string, run: { exitCode: number | null; stderrTail: string }): string {
  return `the variant failed in ${where}, not in the script's functions (exit ${run.exitCode}):\n${lastLines(run.stderrTail, 12)}`;
}

const REASON_HEAD = /^the variant failed in (.+), not in the script's functions \(exit (-?\d+|null)\):\n/;
const MAIN_LINE = /^the variant's main \(line (\d+) of it\)$/;

/**
 * The same reason as its writer is shown it: the place said as the writer knows it ("line 5 of your
 * main"; the prompt already says the fault is its own, not the script's) and the traceback trimmed.
 */
export function variantFaultForWriter(reason: string): string {
  const head = REASON_HEAD.exec(reason);
  if (!head) return tracebackForWriter(reason);
  const line = MAIN_LINE.exec(head[1]!);
  const where = line ? `line ${line[1]} of your main` : head[1]!.replace("the variant's main", 'your main');
  return `${where} (exit ${head[2]}):\n${tracebackForWriter(reason.slice(head[0].length))}`;
}
