// The truth-leak guard: the agents that write scripts (author, coder, repairer, assertion writer,
// convergence writer) must never read the truths their limiting cases are checked against, or the
// assertion test checks nothing. A prompt's text leaks a truth when it carries the truth's claim
// sentence, or one of its numeric values that the article's own source text does not also contain
// (a value the article states is the article's, not ours).
import { parseTruth } from './truth.js';

export interface TruthCase {
  id: string;
  truth: string;
  /** The case's statement: a value it states is a parameter of the case (the phase an estimation must recover), not a leak. */
  content?: string;
}

/** A piece of text that goes into a script writer's prompt, and the file (or place) it comes from. */
export interface PromptMaterial {
  file: string;
  text: string;
}

export interface TruthLeak {
  file: string;
  case: string;
  kind: 'sentence' | 'value';
  /** The claim sentence or the value found. */
  found: string;
}

const NUMBER_TOKEN = /(?<![\w.])[-+\u2212]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+\u2212]?\d+)?(?![\w.]*\d)/g;

const FRACTION = /(?<![\w./])(\d+)\s*\/\s*(\d+)(?![\w.]*\d)/g;

function normalise(text: string): string {
  return text.replace(/\u2212/g, '-').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The truth's claim: the text before its tolerance sentence, without trailing punctuation. */
function claimSentence(truth: string): string {
  const cut = truth.search(/(?:\bthe\s+)?\b(?:relative|absolute)?\s*(?:error\s+)?tolerance\b/i);
  return normalise((cut > 0 ? truth.slice(0, cut) : truth).replace(/[\s.,;:]+$/, ''));
}

/** Absolute values of the numbers written in a text (signs ignored: "1.1373" leaks "-1.1373"). */
export function numbersIn(text: string): number[] {
  const plain = text.replace(/\u2212/g, '-');
  // "3/4" states 0.75 as surely as "0.75" does.
  const fractions = [...plain.matchAll(FRACTION)].map((m) => Number(m[1]) / Number(m[2]));
  return [...(plain.match(NUMBER_TOKEN) ?? []).map((t) => Math.abs(Number(t))), ...fractions].filter(Number.isFinite);
}

function sameValue(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * The values of a truth worth looking for. Integers are left to the sentence check: sizes, indices,
 * electron counts and exact limits such as -2 occur in every physics prompt as parameters, so a bare
 * integer in a prompt cannot be told from a leak; a value with a fractional part (0.75, -1.1373) can.
 */
function distinctiveValues(truth: string): number[] {
  const parsed = parseTruth(truth);
  if (parsed.kind !== 'numeric') return [];
  return [...new Set(parsed.values.map((v) => Math.abs(v)).filter((v) => !Number.isInteger(v)))];
}

/**
 * Every leak of `cases`' truths in `material`. `articleText` is the article's own source (its TeX);
 * a value it contains is exempt (the article states it; we did not add it), and so is a value the
 * task's own statement gives as a parameter (the request's couplings, the phase a case's estimation
 * must recover) — its claim sentence is still looked for everywhere. A digest is ours, so it is material, never an exemption.
 */
export function findTruthLeaks(material: PromptMaterial[], cases: TruthCase[], articleText?: string, request?: string): TruthLeak[] {
  const articleNumbers = articleText ? numbersIn(articleText) : [];
  const statedParameters = [...cases.flatMap((c) => (c.content ? numbersIn(c.content) : [])), ...(request ? numbersIn(request) : [])];
  const leaks: TruthLeak[] = [];
  for (const m of material) {
    const text = normalise(m.text);
    const numbers = numbersIn(m.text);
    for (const c of cases) {
      const claim = claimSentence(c.truth);
      if (claim.length >= 12 && text.includes(claim)) leaks.push({ file: m.file, case: c.id, kind: 'sentence', found: claim });
      for (const v of distinctiveValues(c.truth)) {
        if (articleNumbers.some((a) => sameValue(a, v)) || statedParameters.some((a) => sameValue(a, v))) continue;
        if (numbers.some((n) => sameValue(n, v))) leaks.push({ file: m.file, case: c.id, kind: 'value', found: String(v) });
      }
    }
  }
  return leaks;
}

/** One line per leak, naming the file that carries it and what to do. */
export function describeTruthLeaks(leaks: TruthLeak[]): string {
  return leaks
    .map((l) => `${l.file} carries the truth of ${l.case} (${l.kind === 'sentence' ? `its claim "${l.found}"` : `its value ${l.found}`}), which a script-writing agent would read; remove it from that file`)
    .join('\n');
}
