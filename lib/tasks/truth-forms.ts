// The forms a truth's value can take in a text: the number as written (0.159), in other notations
// (1.59e-1, .159), rounded (0.1594 and 0.159 agree at three significant digits), as a fraction (3/4,
// 3J/4) or as a closed formula (\frac{4}{9}, √5 − 2, 1/4 − ln 2). The leak guard looks for all of
// them; an exact agreement of short numbers is needed, so 0.2 never "rounds to" 0.159.

/** A number found in a text: its absolute value and how many significant digits it was written with. */
export interface WrittenNumber {
  value: number;
  sig: number;
  text: string;
}

const NUMBER_TOKEN = /(?<![\w.])[-+\u2212]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+\u2212]?\d+)?(?![\w.]*\d)/g;
const FRACTION = /(?<![\w./])(\d+)\s*(?:[A-Za-z]\s*)?\/\s*(\d+)(?![\w.]*\d)/g;

/** Significant digits of a written number ("0.0996" 3, "1.59e-1" 3, "200" 3, "0" 1). */
export function significantDigits(token: string): number {
  const mantissa = token.replace(/^[-+\u2212]/, '').replace(/[eE].*$/, '');
  return Math.max(1, mantissa.replace('.', '').replace(/^0+/, '').length);
}

/** Absolute values of the numbers written in a text, with their significant digits; fractions ("3/4", "3J/4") count exactly. */
export function writtenNumbers(text: string): WrittenNumber[] {
  const plain = text.replace(/\u2212/g, '-');
  const tokens = (plain.match(NUMBER_TOKEN) ?? []).map((t) => ({ value: Math.abs(Number(t)), sig: significantDigits(t), text: t }));
  const fractions = [...plain.matchAll(FRACTION)].map((m) => ({ value: Number(m[1]) / Number(m[2]), sig: 15, text: m[0] }));
  return [...tokens, ...fractions].filter((n) => Number.isFinite(n.value));
}

export function sameValue(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Rounded forms agree: both written with at least 3 significant digits and equal at the shorter one's precision. */
export function agrees(a: WrittenNumber, b: WrittenNumber): boolean {
  if (sameValue(a.value, b.value)) return true;
  const k = Math.min(a.sig, b.sig, 15);
  if (k < 3 || a.value === 0 || b.value === 0) return false;
  return sameValue(Number(a.value.toPrecision(k)), Number(b.value.toPrecision(k)));
}

// Closed formulas: runs of digits, operators, parentheses, √, π and ln/log/sqrt, evaluated by a small parser.
const LATEX: [RegExp, string][] = [
  [/\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g, '(($1)/($2))'],
  [/\\sqrt\s*\{([^{}]*)\}/g, 'sqrt($1)'],
  [/\\(?:ln|log)\b/g, 'ln'],
  [/\\pi\b/g, 'π'],
  [/\\cdot|\\times|·|×/g, '*'],
  [/\\left|\\right/g, ''],
];
const FORMULA_RUN = /(?:[\d.√π()+\-*/^ ]|\bsqrt\b|\bln\b|\blog\b|\bpi\b)+/g;

type Token = { kind: 'num'; value: number } | { kind: 'op'; op: string } | { kind: 'fn'; name: string };

function tokenize(s: string): Token[] | null {
  const out: Token[] = [];
  const re = /\s*(?:(\d+(?:\.\d*)?|\.\d+)|(sqrt|ln|log|√)|(pi|π)|([-+*/^()]))/y;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < s.length) {
    re.lastIndex = at;
    m = re.exec(s);
    if (!m) return s.slice(at).trim() === '' ? out : null;
    at = re.lastIndex;
    if (m[1]) out.push({ kind: 'num', value: Number(m[1]) });
    else if (m[2]) out.push({ kind: 'fn', name: m[2] === '√' ? 'sqrt' : m[2] });
    else if (m[3]) out.push({ kind: 'num', value: Math.PI });
    else out.push({ kind: 'op', op: m[4]! });
  }
  return out;
}

/** expr := term (±term)*; term := power ((*|/|implicit) power)*; power := unary (^ unary)?; unary := -unary | fn unary | atom. */
function evaluate(tokens: Token[]): number | null {
  let i = 0;
  const peek = () => tokens[i];
  const isOp = (op: string) => peek()?.kind === 'op' && (peek() as { op: string }).op === op;
  const atom = (): number | null => {
    const t = peek();
    if (!t) return null;
    if (t.kind === 'num') return i++, t.value;
    if (t.kind === 'op' && t.op === '(') {
      i++;
      const v = expr();
      if (v === null || !isOp(')')) return null;
      i++;
      return v;
    }
    return null;
  };
  const unary = (): number | null => {
    const t = peek();
    if (t?.kind === 'op' && (t.op === '-' || t.op === '+')) {
      i++;
      const v = unary();
      return v === null ? null : t.op === '-' ? -v : v;
    }
    if (t?.kind === 'fn') {
      i++;
      const v = unary();
      if (v === null) return null;
      return t.name === 'sqrt' ? Math.sqrt(v) : Math.log(v);
    }
    return atom();
  };
  const power = (): number | null => {
    const b = unary();
    if (b === null || !isOp('^')) return b;
    i++;
    const e = unary();
    return e === null ? null : b ** e;
  };
  const term = (): number | null => {
    let v = power();
    while (v !== null) {
      const t = peek();
      if (t?.kind === 'op' && (t.op === '*' || t.op === '/')) {
        i++;
        const r = power();
        if (r === null) return null;
        v = t.op === '*' ? v * r : v / r;
      } else if (t && (t.kind === 'fn' || t.kind === 'num' || (t.kind === 'op' && t.op === '('))) {
        const r = power(); // implicit product: 2√2, 2(1+x)
        if (r === null) return null;
        v *= r;
      } else break;
    }
    return v;
  };
  const expr = (): number | null => {
    let v = term();
    while (v !== null && (isOp('+') || isOp('-'))) {
      const op = (tokens[i++] as { op: string }).op;
      const r = term();
      if (r === null) return null;
      v = op === '+' ? v + r : v - r;
    }
    return v;
  };
  const v = expr();
  return v !== null && i === tokens.length && Number.isFinite(v) ? v : null;
}

const MAX_FORMULA_TOKENS = 16;

/**
 * Values of the closed formulas in a text (absolute values): every contiguous stretch of a math-like
 * run that parses and contains an operation (a bare number is left to writtenNumbers).
 */
export function formulaValues(text: string): { value: number; text: string }[] {
  let plain = text.replace(/\u2212|\u2013/g, '-');
  for (const [re, to] of LATEX) plain = plain.replace(re, to);
  const out: { value: number; text: string }[] = [];
  for (const run of plain.match(FORMULA_RUN) ?? []) {
    const tokens = tokenize(run);
    if (!tokens || tokens.length < 2) continue;
    const n = Math.min(tokens.length, 64);
    for (let a = 0; a < n; a++) {
      for (let b = a + 2; b <= Math.min(n, a + MAX_FORMULA_TOKENS); b++) {
        const span = tokens.slice(a, b);
        // A closed form divides, takes a root or a logarithm, or has π: sums of decimals are mere arithmetic.
        if (!span.some((t) => t.kind === 'fn' || (t.kind === 'op' && (t.op === '/' || t.op === '^')) || (t.kind === 'num' && t.value === Math.PI))) continue;
        const v = evaluate(span);
        if (v !== null) out.push({ value: Math.abs(v), text: run.trim() });
      }
    }
  }
  return out;
}
