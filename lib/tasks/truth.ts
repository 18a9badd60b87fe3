// Truths of limiting cases and scientific results are prose with a tolerance sentence, e.g.
//   "The ground state energy is -2. The relative error tolerance is +/- 0.05."
//   "The sigma_z of the first site at t = 0.5, 1 are -0.416, -0.654. The absolute error tolerance is +/- 0.1."
// We read the numbers and the tolerance here so the scientific verifier compares them by code; only
// truths without numbers (e.g. "spatially symmetric") go to an LLM judge, and symmetric/constant
// ones can also be checked by code (checkProperty).

export type ToleranceType = 'relative' | 'absolute';

export interface Tolerance {
  type: ToleranceType;
  value: number;
  /** False when the truth gave no tolerance and DEFAULT_TOLERANCE was used. */
  stated: boolean;
  /** "for each site", "for each checkpoint": the tolerance applies to every element. */
  perItem?: boolean;
}

/** Used only when a numeric truth states no tolerance (none in QMP-Bench as published). */
export const DEFAULT_TOLERANCE: Tolerance = { type: 'relative', value: 0.01, stated: false };

export type QualitativeProperty = 'spatially-symmetric' | 'constant';

export type ParsedTruth =
  | {
      kind: 'numeric';
      text: string;
      /** What the value is of, e.g. "The ground state energy". */
      quantity: string;
      /** One value (possibly meant for several observables: "are both 6", "constantly 0") or one per checkpoint. */
      values: number[];
      tolerance: Tolerance;
    }
  | {
      kind: 'qualitative';
      text: string;
      /** A property code can check on a vector of numbers, when the truth names one. */
      property?: QualitativeProperty;
      tolerance?: Tolerance;
    };

const NUM = String.raw`[-+\u2212]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+\u2212]?\d+)?(?:\s*(?:[x\u00d7*])\s*10\s*\^\s*\{?[-+\u2212]?\d+\}?)?`;
const NUMBER = new RegExp(NUM, 'g');
const PLUS_MINUS = String.raw`(?:\+\s*\/\s*-|\u00b1|\+-)`;

const TOLERANCE_SENTENCE = new RegExp(
  String.raw`(?:\bthe\s+)?\b(relative|absolute)?\s*(?:error\s+)?tolerance\s*(?:is|of|=|:)?\s*(?:within\s+)?${PLUS_MINUS}?\s*(${NUM})\s*(%|percent\b)?`,
  'i',
);
// Any tolerance phrase with whatever follows it, readable or not ("+/- NaN", "+/- -0.05"): validation
// names it rather than letting a broken tolerance turn a numeric truth into prose.
const TOLERANCE_ANY = new RegExp(String.raw`(?:\bthe\s+)?\b(?:relative|absolute)?\s*(?:error\s+)?tolerance\s*(is|of|=|:)?\s*(?:within\s+)?(${PLUS_MINUS})?\s*([^\s,;]*)`, 'i');
const WITHIN_PERCENT = new RegExp(String.raw`\bwithin\s+${PLUS_MINUS}?\s*(${NUM})\s*(%|percent\b)`, 'i');
const VALUE_PLUS_MINUS = new RegExp(String.raw`(${NUM})\s*${PLUS_MINUS}\s*(${NUM})\s*(%|percent\b)?`);
const PER_ITEM = /\b(?:for\s+)?(?:each|every)\s+(?:site|checkpoint|point|time|value|element)\b/i;
// The value follows the last of these; earlier "=" belong to conditions ("at r = 2 is 0.1229").
const VERB = /\b(?:is|are|be|equals?|equal\s+to)\b|=|\u2248|~/gi;

export function parseNumber(token: string): number {
  const t = token.replace(/\u2212/g, '-').replace(/\s+/g, '');
  const m = /^(.*?)(?:[x\u00d7*]10\^\{?([-+]?\d+)\}?)$/.exec(t);
  return m ? Number(`${m[1]}e${m[2]}`) : Number(t);
}

/** The tolerance stated anywhere in a sentence (also used for ConvergenceCases' `criteria`). */
export function parseTolerance(text: string): Tolerance | undefined {
  const m = TOLERANCE_SENTENCE.exec(text);
  if (m) return tolerance(m[1], m[2]!, m[3], text);
  const w = WITHIN_PERCENT.exec(text);
  if (w) return tolerance('relative', w[1]!, w[2], text);
  const pm = VALUE_PLUS_MINUS.exec(text);
  if (pm) return tolerance(undefined, pm[2]!, pm[3], text);
  return undefined;
}

function tolerance(type: string | undefined, value: string, percent: string | undefined, text: string): Tolerance {
  // An unqualified "± x" reads as an error bar (absolute); a percentage is relative by nature.
  const kind: ToleranceType = type ? (type.toLowerCase() as ToleranceType) : percent ? 'relative' : 'absolute';
  // The sign is kept: a negative tolerance is an error of the task file (toleranceProblem), never flipped.
  const t: Tolerance = { type: kind, value: parseNumber(value) / (percent ? 100 : 1), stated: true };
  if (PER_ITEM.test(text)) t.perItem = true;
  return t;
}

/**
 * What is wrong with the tolerance a sentence states, or undefined when it states a usable one (or
 * none). A tolerance must be a finite number > 0: 0 means an exact match no computed value meets, a
 * negative one would fail everything, a word ("NaN") is not read at all.
 */
export function toleranceProblem(text: string): string | undefined {
  const any = TOLERANCE_ANY.exec(text);
  const tol = parseTolerance(text);
  if (!tol) {
    // Only a phrase that states a value ("is", "of", "=", "±" followed by something) is a broken tolerance.
    const token = any?.[3]?.replace(/[.]+$/, '');
    if (!any || (!any[1] && !any[2]) || !token) return undefined;
    return `the tolerance "${token}" is not a number; write e.g. "The relative error tolerance is +/- 0.05."`;
  }
  if (!Number.isFinite(tol.value)) return `the tolerance ${tol.value} is not a finite number; write e.g. "+/- 0.05"`;
  if (tol.value < 0) return `the tolerance ${tol.value} is negative; a tolerance is a size: write "+/- ${-tol.value}" if that is meant`;
  if (tol.value === 0) return 'the tolerance is 0: no computed value matches exactly; give the accuracy the value is known to, e.g. "+/- 1e-6"';
  return undefined;
}

export function parseTruth(truth: string): ParsedTruth {
  const text = truth.trim();
  const tol = parseTolerance(text);
  const claim = claimPart(text);
  const verb = lastMatch(VERB, claim);
  const quantity = (verb ? claim.slice(0, verb.index) : '').trim();
  const rest = verb ? claim.slice(verb.index + verb[0].length) : claim;
  const values = verb ? (rest.match(NUMBER) ?? []).map(parseNumber).filter(Number.isFinite) : [];
  if (values.length > 0) return { kind: 'numeric', text, quantity, values, tolerance: tol ?? DEFAULT_TOLERANCE };
  const out: ParsedTruth = { kind: 'qualitative', text };
  const property = propertyOf(rest);
  if (property) out.property = property;
  if (tol) out.tolerance = tol;
  return out;
}

/** The sentence stating the value: everything before the tolerance sentence, and before any "± x". */
function claimPart(text: string): string {
  let end = text.length;
  const tol = TOLERANCE_ANY.exec(text);
  if (tol) end = Math.min(end, tol.index);
  const within = WITHIN_PERCENT.exec(text);
  if (within) end = Math.min(end, within.index);
  let claim = text.slice(0, end);
  const pm = VALUE_PLUS_MINUS.exec(claim);
  if (pm) claim = claim.slice(0, pm.index + pm[1]!.length);
  // Trailing punctuation of the claim sentence ("-2." / "0.693,") must not swallow into a number.
  return claim.replace(/[\s.,;:]+$/, '');
}

function lastMatch(re: RegExp, s: string): RegExpExecArray | undefined {
  let last: RegExpExecArray | undefined;
  re.lastIndex = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) last = m;
  return last;
}

function propertyOf(s: string): QualitativeProperty | undefined {
  if (/\bsymmetric\b/i.test(s)) return 'spatially-symmetric';
  if (/\bconstant(?:ly)?\b|\bunchanged\b|\bconserved\b/i.test(s)) return 'constant';
  return undefined;
}

export interface NumericComparison {
  pass: boolean;
  observed: number[];
  expected: number[];
  /** Largest error over the compared elements, in the tolerance's own terms (relative or absolute). */
  error: number;
  errors: number[];
  tolerance: Tolerance;
  /** Why a comparison could not be made or was adjusted (length mismatch, relative error at 0). */
  note?: string;
}

// Float noise must not fail a value that sits exactly on the tolerance edge.
const EDGE = 1e-12;
const ZERO = 1e-12;

/**
 * Compares observed numbers with a numeric truth. One expected value is compared with every observed
 * element ("are both 6"); otherwise lengths must match. A relative tolerance against an expected 0 is
 * undefined, so it is applied as an absolute one there (and said so in `note`).
 */
export function compareNumeric(
  observed: number | readonly number[],
  parsed: Extract<ParsedTruth, { kind: 'numeric' }>,
): NumericComparison {
  const obs = typeof observed === 'number' ? [observed] : [...observed];
  const exp = parsed.values;
  const tol = parsed.tolerance;
  const base = { observed: obs, expected: exp, tolerance: tol };
  if (obs.length === 0) return { ...base, pass: false, error: Infinity, errors: [], note: 'no observed value' };
  if (exp.length !== 1 && exp.length !== obs.length) {
    return { ...base, pass: false, error: Infinity, errors: [], note: `expected ${exp.length} values, observed ${obs.length}` };
  }
  let zeroNote = false;
  const errors = obs.map((o, i) => {
    const e = exp.length === 1 ? exp[0]! : exp[i]!;
    if (!Number.isFinite(o)) return Infinity;
    const diff = Math.abs(o - e);
    if (tol.type === 'absolute') return diff;
    if (Math.abs(e) < ZERO) {
      zeroNote = true;
      return diff;
    }
    return diff / Math.abs(e);
  });
  const error = Math.max(...errors);
  const result: NumericComparison = { ...base, pass: error <= tol.value * (1 + EDGE) + EDGE, error, errors };
  if (zeroNote) result.note = 'relative tolerance applied as absolute where the expected value is 0';
  return result;
}

/**
 * Checks a symmetric/constant truth on a vector by code: element i against its mirror n-1-i
 * (spatially symmetric) or against the first element (constant), within the truth's tolerance
 * (relative unless stated absolute; default DEFAULT_TOLERANCE). Undefined when the truth names
 * no such property: that one needs a judge.
 */
export function checkProperty(
  observed: readonly number[],
  parsed: Extract<ParsedTruth, { kind: 'qualitative' }>,
): NumericComparison | undefined {
  if (!parsed.property) return undefined;
  const tol = parsed.tolerance ?? DEFAULT_TOLERANCE;
  const obs = [...observed];
  const reference = parsed.property === 'spatially-symmetric' ? [...obs].reverse() : obs.map(() => obs[0]!);
  const errors = obs.map((o, i) => {
    const r = reference[i]!;
    if (!Number.isFinite(o) || !Number.isFinite(r)) return Infinity;
    const diff = Math.abs(o - r);
    const scale = Math.max(Math.abs(o), Math.abs(r));
    return tol.type === 'absolute' || scale < ZERO ? diff : diff / scale;
  });
  const error = errors.length ? Math.max(...errors) : Infinity;
  const result: NumericComparison = {
    pass: obs.length > 0 && error <= tol.value * (1 + EDGE) + EDGE,
    observed: obs,
    expected: reference,
    error,
    errors,
    tolerance: tol,
  };
  if (obs.length === 0) result.note = 'no observed value';
  return result;
}
