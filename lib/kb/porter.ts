// The Porter (1980) suffix-stripping stemmer for English words, so that "transform", "transformed" and
// "transformation", or "Estimator" and "estimate", meet as one term. Written from the published
// algorithm (M.F. Porter, "An algorithm for suffix stripping", Program 14(3), 1980), with its two
// widely used refinements (bli→ble, logi→log).

const STEP2: Record<string, string> = {
  ational: 'ate', tional: 'tion', enci: 'ence', anci: 'ance', izer: 'ize', bli: 'ble', alli: 'al', entli: 'ent',
  eli: 'e', ousli: 'ous', ization: 'ize', ation: 'ate', ator: 'ate', alism: 'al', iveness: 'ive', fulness: 'ful',
  ousness: 'ous', aliti: 'al', iviti: 'ive', biliti: 'ble', logi: 'log',
};
const STEP3: Record<string, string> = { icate: 'ic', ative: '', alize: 'al', iciti: 'ic', ical: 'ic', ful: '', ness: '' };

const c = '[^aeiou]';
const v = '[aeiouy]';
const C = `${c}[^aeiouy]*`;
const V = `${v}[aeiou]*`;
/** measure > 0: [C]VC… */
const MGR0 = new RegExp(`^(${C})?${V}${C}`);
/** measure = 1: [C]VC[V] */
const MEQ1 = new RegExp(`^(${C})?${V}${C}(${V})?$`);
/** measure > 1: [C]VCVC… */
const MGR1 = new RegExp(`^(${C})?${V}${C}${V}${C}`);
/** the stem contains a vowel */
const S_V = new RegExp(`^(${C})?${v}`);
/** ends consonant-vowel-consonant, the last not w, x or y */
const CVC = new RegExp(`^${C}${v}[^aeiouwxy]$`);

const STEP2_RE = /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
const STEP3_RE = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
const STEP4_RE = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
const STEP4_ION = /^(.+?)(s|t)(ion)$/;

/** Stems one lowercase English word; anything shorter than 3 letters is returned as is. */
export function porterStem(word: string): string {
  if (word.length < 3) return word;
  let w = word;
  const initialY = w[0] === 'y';
  if (initialY) w = 'Y' + w.slice(1);

  // Step 1a: plurals
  let m: RegExpExecArray | null;
  if ((m = /^(.+?)(ss|i)es$/.exec(w))) w = m[1]! + m[2]!;
  else if ((m = /^(.+?)([^s])s$/.exec(w))) w = m[1]! + m[2]!;

  // Step 1b: -eed, -ed, -ing
  if ((m = /^(.+?)eed$/.exec(w))) {
    if (MGR0.test(m[1]!)) w = w.slice(0, -1);
  } else if ((m = /^(.+?)(ed|ing)$/.exec(w))) {
    const stem = m[1]!;
    if (S_V.test(stem)) {
      w = stem;
      if (/(at|bl|iz)$/.test(w)) w += 'e';
      else if (/([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
      else if (CVC.test(w)) w += 'e';
    }
  }

  // Step 1c: y → i
  if ((m = /^(.+?)y$/.exec(w)) && S_V.test(m[1]!)) w = m[1]! + 'i';

  // Step 2 and 3: double and single suffixes
  if ((m = STEP2_RE.exec(w)) && MGR0.test(m[1]!)) w = m[1]! + STEP2[m[2]!];
  if ((m = STEP3_RE.exec(w)) && MGR0.test(m[1]!)) w = m[1]! + STEP3[m[2]!];

  // Step 4: residual suffixes
  if ((m = STEP4_RE.exec(w))) {
    if (MGR1.test(m[1]!)) w = m[1]!;
  } else if ((m = STEP4_ION.exec(w))) {
    const stem = m[1]! + m[2]!;
    if (MGR1.test(stem)) w = stem;
  }

  // Step 5: final -e, -ll
  if ((m = /^(.+?)e$/.exec(w))) {
    const stem = m[1]!;
    if (MGR1.test(stem) || (MEQ1.test(stem) && !CVC.test(stem))) w = stem;
  }
  if (/ll$/.test(w) && MGR1.test(w)) w = w.slice(0, -1);

  if (initialY) w = 'y' + w.slice(1);
  return w;
}
