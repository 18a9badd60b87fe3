// Localising a failed physical assertion (Scientific verifier): each case's variant calls some element
// functions of the script; a function that failing variants call is a suspect, and one that passing
// variants also call was cleared by them in part, so it ranks lower. Pure: runs in the workflow.

/** What one case's variant did: its main, what it printed, the element functions its main reaches. */
export interface CaseLocalisation {
  case: string;
  main: string;
  output: string;
  /** Element functions reachable from the variant's main (through run_/item_ functions), in script order. */
  calls: string[];
  passed: boolean;
}

export interface Suspect {
  function: string;
  /** Failing variants that call it. */
  failing: number;
  /** Passing variants that call it (they cleared it in part). */
  passing: number;
}

/**
 * The localisation of every case that had a variant: its reach (from building the variants), what
 * its run printed (stdout, and stderr when it failed), and whether its verdict was correct. Cases
 * whose variant failed in its own code are left out.
 */
export function localiseCases(
  reach: { case: string; main: string; calls: string[] }[],
  runs: { id: string; exitCode: number | null; stdoutTail: string; stderrTail: string }[],
  verdicts: { case: string; judge: string; variantFault?: boolean }[],
  outputLines = 30,
): CaseLocalisation[] {
  // A variant that failed in its own code neither accuses nor clears any function.
  const faulty = new Set(verdicts.filter((v) => v.variantFault).map((v) => v.case));
  return reach.filter((r) => !faulty.has(r.case)).map((r) => {
    const run = runs.find((x) => x.id === r.case);
    const output = run ? lastLines([run.stdoutTail, run.exitCode === 0 ? '' : run.stderrTail].filter(Boolean).join('\n'), outputLines) : '';
    return { ...r, output, passed: verdicts.find((v) => v.case === r.case)?.judge === 'correct' };
  });
}

/**
 * Element functions called by at least one failing variant, most suspicious first: called by more
 * failing variants, then by fewer passing ones, then in the script's order.
 */
export function rankSuspects(cases: CaseLocalisation[]): Suspect[] {
  const failing = cases.filter((c) => !c.passed);
  const passing = cases.filter((c) => c.passed);
  const order: string[] = [];
  for (const c of failing) for (const f of c.calls) if (!order.includes(f)) order.push(f);
  return order
    .map((f) => ({ function: f, failing: failing.filter((c) => c.calls.includes(f)).length, passing: passing.filter((c) => c.calls.includes(f)).length }))
    .sort((a, b) => b.failing - a.failing || a.passing - b.passing || order.indexOf(a.function) - order.indexOf(b.function));
}

/** The last `n` lines of a text (a traceback, a program's output), each line kept whole up to `width` characters. */
export function lastLines(text: string, n: number, width = 400): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  return lines
    .slice(-n)
    .map((l) => (l.length > width ? `${l.slice(0, width)} …` : l))
    .join('\n');
}
