// The verdict of one unit test, read from where it failed (paper: "wrong" when the function under
// test is at fault, "undetermined" when the test itself is). The innermost traceback frame inside the
// harness tells which part of the harness the failure is in: the function under test or a script
// function it calls → the script is wrong; the entry point or a background function → the harness
// (the test writer's) fault, whatever the exception (NameError of a missing background, TypeError of a
// bad call, ImportError…). Library frames below the harness only say what failed, not whose fault.
import { lastLines } from '../verification/suspects.js';
import { framesIn, tracebackFrames } from './traceback.js';
import { harnessParts } from './unit-harness.js';

export type UnitJudge = 'correct' | 'wrong' | 'undetermined';

export interface UnitVerdict {
  judge: UnitJudge;
  errors: string;
  /** The element (or script) function a wrong verdict names. */
  blame?: string;
}

/** Lines of a failure shown in reports and prompts: the traceback's own last lines, whole. */
export const ERROR_LINES = 12;

export function judgeUnitRun(input: {
  target: string;
  harness: { fileName: string; source: string };
  /** Whether the entry point calls (or passes on) the function under test at all. */
  entryCallsTarget: boolean;
  /** The script's element functions, and all its functions (element, run_, helpers). */
  elementFunctions: ReadonlySet<string>;
  /** `killed`: why the sandbox stopped it, with its limit (the run's digest). */
  run: { exitCode: number | null; timedOut: boolean; durationMs: number; stderrTail: string; killed?: string };
}): UnitVerdict {
  const { target, run } = input;
  const notCalled = `the entry point never calls ${target}, so it tests nothing; call ${target} from main`;
  if (run.exitCode === 0 && !run.timedOut) return input.entryCallsTarget ? { judge: 'correct', errors: 'None' } : { judge: 'undetermined', errors: notCalled };
  const tail = lastLines(run.stderrTail, ERROR_LINES);
  const frames = framesIn(tracebackFrames(run.stderrTail), input.harness.fileName);
  const innermost = frames[frames.length - 1];
  // A test stopped for time was interrupted first (runners/sandbox/interrupt.ts): its traceback says
  // where it was, and that is judged like any failure — the function under test never ending is its failure.
  const stopped = run.timedOut ? `${run.killed ?? `timed out after ${run.durationMs} ms`}; ` : '';
  if (!innermost) {
    if (run.timedOut) return { judge: 'undetermined', errors: `${stopped}no traceback says where it was: build smaller inputs in the entry point` };
    return { judge: 'undetermined', errors: `the harness failed (exit ${run.exitCode}) without a traceback into it:\n${tail}` };
  }
  const parts = harnessParts(input.harness.source);
  const part = parts[innermost.line] ?? 'workflow';
  if (part === 'underTest' || part === 'dependencies') {
    // Stopped for time while the harness calls the function in a loop: the loop may be what never
    // ended (the function returning each time), so it is not the function's failure.
    const caller = [...frames].reverse().find((f) => parts[f.line] !== 'underTest' && parts[f.line] !== 'dependencies');
    if (run.timedOut && caller && inLoop(input.harness.source, caller.line)) {
      // Where the interrupt landed inside the function says nothing here: the loop's line and the last frames suffice.
      return { judge: 'undetermined', errors: `${stopped}the test harness calls ${target} in a loop (line ${caller.line}) that was still running: call it once, with small inputs:\n${lastLines(run.stderrTail, 4)}` };
    }
    // Name the innermost element function among the script's frames (a helper's frame names itself).
    const scriptFrames = frames.filter((f) => parts[f.line] === 'underTest' || parts[f.line] === 'dependencies');
    const element = [...scriptFrames].reverse().find((f) => input.elementFunctions.has(f.fn));
    const blame = element?.fn ?? (part === 'underTest' ? target : innermost.fn);
    return { judge: 'wrong', blame, errors: `${stopped}${stopped ? 'it was still running' : 'failed'} in ${blame}:\n${tail}` };
  }
  if (part === 'preamble' || part === 'topLevel') return { judge: 'wrong', blame: target, errors: `${stopped}failed in the script's top-level code (imports or constants), before ${target} ran:\n${tail}` };
  if (!input.entryCallsTarget) return { judge: 'undetermined', errors: `${stopped}${notCalled}; it failed in the harness:\n${tail}` };
  const where = part === 'background' ? `the background function ${innermost.fn}` : `the entry point (${innermost.fn})`;
  return { judge: 'undetermined', errors: `${stopped}the test harness ${stopped ? 'was still running' : 'failed'} in ${where}, not in ${target}${stopped ? ': build smaller inputs in the entry point' : ''}:\n${tail}` };
}

/** Whether 1-based `line` of `source` sits in a `for`/`while` block (by indentation, within its function). */
function inLoop(source: string, line: number): boolean {
  const lines = source.split('\n');
  const indentOf = (l: string) => l.length - l.trimStart().length;
  let indent = indentOf(lines[line - 1] ?? '');
  for (let k = line - 2; k >= 0 && indent > 0; k--) {
    const l = lines[k]!;
    if (!l.trim() || l.trimStart().startsWith('#') || indentOf(l) >= indent) continue;
    indent = indentOf(l);
    const head = l.trimStart();
    if (/^(for|while|async\s+for)\b/.test(head)) return true;
    if (/^(async\s+)?def\b/.test(head)) return false;
  }
  return false;
}
