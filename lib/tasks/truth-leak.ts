// The truth-leak guard: the agents that write scripts (author, coder, unit-test writer, repairer,
// assertion writer, convergence writer) must never read the truths their limiting cases and
// scientific results are checked against, or the assertion test checks nothing. A prompt's text leaks
// a truth when it carries the truth's claim sentence, or one of its values in any written form
// (lib/tasks/truth-forms.ts) that the article's own source text does not also contain (a value the
// article states is the article's, not ours) and that is not on the published-values allow-list.
import { parseTruth } from './truth.js';
import { agrees, formulaValues, sameValue, writtenNumbers, type WrittenNumber } from './truth-forms.js';

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
  kind: 'sentence' | 'value' | 'formula';
  /** The claim sentence or the value found. */
  found: string;
  /** The text as it stands in the material (the number or formula as written), for a redaction. */
  match?: string;
}

function normalise(text: string): string {
  return text.replace(/\u2212/g, '-').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The truth's claim: the text before its tolerance sentence, without trailing punctuation. */
function claimSentence(truth: string): string {
  const cut = truth.search(/(?:\bthe\s+)?\b(?:relative|absolute)?\s*(?:error\s+)?tolerance\b/i);
  return normalise((cut > 0 ? truth.slice(0, cut) : truth).replace(/[\s.,;:]+$/, ''));
}

/**
 * The values of a truth worth looking for, as written (with their significant digits). Integers are
 * left to the sentence check: sizes, indices, electron counts and exact limits such as -2 occur in
 * every physics prompt as parameters, so a bare integer in a prompt cannot be told from a leak; a
 * value with a fractional part (0.75, -1.1373) can.
 */
function distinctiveValues(truth: string): WrittenNumber[] {
  const parsed = parseTruth(truth);
  if (parsed.kind !== 'numeric') return [];
  const written = writtenNumbers(claimSentence(truth));
  const values = [...new Set(parsed.values.map((v) => Math.abs(v)).filter((v) => !Number.isInteger(v)))];
  return values.map((value) => written.find((w) => sameValue(w.value, value)) ?? { value, sig: 15, text: String(value) });
}

/** Values a text may carry although a truth has them: the article states them (allow-listed with their source). */
export interface AllowedValue {
  value: number;
  source: string;
}

/**
 * Every leak of `cases`' truths in `material`. `articleText` is the article's own source (its TeX);
 * a value it contains is exempt (the article states it; we did not add it), and so is a value the
 * task's own statement gives as a parameter (the request's couplings, the phase a case's estimation
 * must recover) and a value on the `allowed` list (a published value the article itself states, with
 * the place). Its claim sentence is still looked for everywhere. A digest is ours, so it is material,
 * never an exemption. Values are found as written, in other notations, rounded (to at least three
 * significant digits) and as closed formulas (fractions, roots, logarithms, π).
 */
export function findTruthLeaks(material: PromptMaterial[], cases: TruthCase[], articleText?: string, request?: string, allowed: AllowedValue[] = []): TruthLeak[] {
  const stated = (text: string): WrittenNumber[] => [...writtenNumbers(text), ...formulaValues(text).map((f) => ({ value: f.value, sig: 15, text: f.text }))];
  const exempt: WrittenNumber[] = [
    ...(articleText ? stated(articleText) : []),
    ...cases.flatMap((c) => (c.content ? stated(c.content) : [])),
    ...(request ? stated(request) : []),
  ];
  const leaks: TruthLeak[] = [];
  for (const m of material) {
    const text = normalise(m.text);
    const numbers = writtenNumbers(m.text);
    const formulas = formulaValues(m.text);
    for (const c of cases) {
      const claim = claimSentence(c.truth);
      if (claim.length >= 12 && text.includes(claim)) leaks.push({ file: m.file, case: c.id, kind: 'sentence', found: claim });
      for (const v of distinctiveValues(c.truth)) {
        if (exempt.some((a) => agrees(a, v)) || allowed.some((a) => sameValue(a.value, v.value))) continue;
        const hit = numbers.find((n) => agrees(n, v));
        if (hit) {
          leaks.push({ file: m.file, case: c.id, kind: 'value', found: hit.text.trim() === v.text ? v.text : `${v.text} as ${hit.text.trim()}`, match: hit.text.trim() });
          continue;
        }
        const formula = formulas.find((f) => agrees({ value: f.value, sig: 15, text: f.text }, v));
        if (formula) leaks.push({ file: m.file, case: c.id, kind: 'formula', found: `${v.text} as ${formula.text}`, match: formula.text });
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
