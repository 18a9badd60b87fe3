// Localising a failed physical assertion (Scientific verifier): each case's variant calls some element
// functions of the script; a function that failing variants call is a suspect. What ranks them is
// evidence from the runtime's call recording (lib/verification/call-records.ts): the values each
// function returned in failing and in passing variants.
//   - A function that returned, in a failing variant, only values some passing variant also got from
//     it is exonerated: what it did there also led to a correct result.
//   - A function whose value in a failing variant no passing variant produced deviates. It introduced
//     the deviation when none of the recorded functions that fed it deviated (its inputs were the
//     case's parameters or values the passing variants also had): it ranks first. One that was fed a
//     deviating value only passed it on: it ranks below.
// Without recordings (Julia, a run killed) the ranking is by who called what, as before: called by
// more failing variants, then by fewer passing ones. Pure: runs in the workflow.
import type { CaseCalls, FunctionValues } from './call-records.js';

/** What one case's variant did: its main, what it printed, the element functions its main reaches. */
export interface CaseLocalisation {
  case: string;
  main: string;
  output: string;
  /** Element functions reachable from the variant's main (through run_/item_ functions), in script order. */
  calls: string[];
  passed: boolean;
  /** What each recorded function returned in this variant (absent without a call recording). */
  values?: FunctionValues[];
}

/** What the recorded values say about a suspect. */
export type SuspectEvidence = 'introduced' | 'passed-on' | 'unknown' | 'exonerated' | 'unrecorded';

export interface Suspect {
  function: string;
  /** Failing variants that call it. */
  failing: number;
  /** Passing variants that call it (they cleared it in part). */
  passing: number;
  /** The strongest evidence over the failing variants, and in how many of them it held. */
  evidence: SuspectEvidence;
  /** Failing variants in which its value deviated from every passing variant's and nothing it was fed did. */
  introduced: number;
  /** Failing variants in which its value deviated (introduced or passed on). */
  deviated: number;
  /** Why, in words, for the repair prompt. */
  why: string;
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
  calls?: CaseCalls[],
): CaseLocalisation[] {
  // A variant that failed in its own code neither accuses nor clears any function.
  const faulty = new Set(verdicts.filter((v) => v.variantFault).map((v) => v.case));
  return reach.filter((r) => !faulty.has(r.case)).map((r) => {
    const run = runs.find((x) => x.id === r.case);
    const output = run ? lastLines([run.stdoutTail, run.exitCode === 0 ? '' : run.stderrTail].filter(Boolean).join('\n'), outputLines) : '';
    const values = calls?.find((c) => c.case === r.case)?.functions;
    return { ...r, output, passed: verdicts.find((v) => v.case === r.case)?.judge === 'correct', ...(values ? { values } : {}) };
  });
}

type Novelty = 'yes' | 'no' | 'unknown';

/** Whether `f`'s values in a failing variant are ones no passing variant got from it. */
function novelty(v: FunctionValues | undefined, passingOuts: Set<string>): Novelty | undefined {
  if (!v) return undefined;
  if (v.outs.some((h) => !passingOuts.has(h))) return 'yes';
  return v.opaque ? 'unknown' : 'no';
}

const RANK: Record<SuspectEvidence, number> = { introduced: 4, 'passed-on': 3, unrecorded: 2, unknown: 1, exonerated: 0 };

/** The evidence about `f` over the failing variants (those with recordings decide; none → unrecorded). */
function evidenceFor(f: string, failing: CaseLocalisation[], passing: CaseLocalisation[]): Pick<Suspect, 'evidence' | 'introduced' | 'deviated' | 'why'> {
  const outsOf = (fn: string) => new Set(passing.flatMap((p) => p.values?.find((v) => v.function === fn)?.outs ?? []));
  const recorded = failing.filter((c) => c.values && c.calls.includes(f));
  if (recorded.length === 0 || !passing.some((p) => p.values)) return { evidence: 'unrecorded', introduced: 0, deviated: 0, why: 'no call recording to compare' };
  let introduced = 0;
  let deviated = 0;
  let unknown = 0;
  let ran = 0;
  const fedBy = new Set<string>();
  for (const c of recorded) {
    const mine = c.values!.find((v) => v.function === f);
    const n = novelty(mine, outsOf(f));
    if (n === undefined) continue; // reachable from its main, but never called in this run
    ran++;
    if (n === 'unknown') unknown++;
    if (n !== 'yes') continue;
    deviated++;
    const feeding = mine!.from.filter((g) => novelty(c.values!.find((v) => v.function === g), outsOf(g)) !== 'no');
    if (feeding.length === 0) introduced++;
    else for (const g of feeding) fedBy.add(g);
  }
  const cases = (k: number) => `${k} failing variant${k === 1 ? '' : 's'}`;
  if (introduced > 0) return { evidence: 'introduced', introduced, deviated, why: `in ${cases(introduced)} it returned values no passing variant got from it, while everything it was given matched the passing variants: the deviation starts here` };
  if (deviated > 0) return { evidence: 'passed-on', introduced, deviated, why: `its values deviated in ${cases(deviated)}, but it was given deviating values by ${[...fedBy].join(', ')}` };
  if (ran === 0) return { evidence: 'unrecorded', introduced, deviated, why: 'not called in the recorded failing runs' };
  if (unknown > 0) return { evidence: 'unknown', introduced, deviated, why: 'its return values could not be compared (opaque objects)' };
  return { evidence: 'exonerated', introduced, deviated, why: 'it returned the same values in the failing variants as in passing ones' };
}

/**
 * Element functions called by at least one failing variant, most suspicious first: by the evidence
 * of their recorded values (introduced a deviation, passed one on, no recording, not comparable,
 * exonerated), then called by more failing variants, then by fewer passing ones, then in the script's order.
 */
export function rankSuspects(cases: CaseLocalisation[]): Suspect[] {
  const failing = cases.filter((c) => !c.passed);
  const passing = cases.filter((c) => c.passed);
  const order: string[] = [];
  for (const c of failing) for (const f of c.calls) if (!order.includes(f)) order.push(f);
  return order
    .map((f) => ({ function: f, failing: failing.filter((c) => c.calls.includes(f)).length, passing: passing.filter((c) => c.calls.includes(f)).length, ...evidenceFor(f, failing, passing) }))
    .sort((a, b) => RANK[b.evidence] - RANK[a.evidence] || b.introduced - a.introduced || b.deviated - a.deviated || b.failing - a.failing || a.passing - b.passing || order.indexOf(a.function) - order.indexOf(b.function));
}

/** The last `n` lines of a text (a traceback, a program's output), each line kept whole up to `width` characters. */
export function lastLines(text: string, n: number, width = 400): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  return lines
    .slice(-n)
    .map((l) => (l.length > width ? `${l.slice(0, width)} …` : l))
    .join('\n');
}
