// How documentation text and queries become search terms. API docs are full of identifiers
// (`chi_max`, `TwoSiteDMRGEngine`, `qiskit.quantum_info.SparsePauliOp`), while questions use words
// ("chi max", "two site DMRG", "sparse Pauli operator"); emitting an identifier both whole and in its
// pieces lets either spelling meet the other.
// The Porter (1980) stemmer, with its two usual refinements (bli→ble, logi→log).
import { stemmer } from 'stemmer';

const STOPWORDS = new Set(
  (
    'a an and are as at be by can do does for from how i if in into is it its me my of on or so such that the their then ' +
    'there these this to use used uses using was what when where which who why will with you your want get set ' +
    'should would could we our via per each'
  ).split(' '),
);

// One raw token: letters/digits with the joiners of identifiers (`_` and `.`) kept, so that
// `tenpy.algorithms.dmrg.run` and `chi_max` survive as units before being split further.
const RAW_TOKEN = /[A-Za-z0-9_.]+/g;
const PLAIN_WORD = /^[a-z0-9]+$/;

function camelPieces(word: string): string[] {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(' ')
    .filter(Boolean);
}

function identifierPieces(raw: string): string[] {
  const out: string[] = [];
  const trimmed = raw.replace(/^[._]+|[._]+$/g, '');
  for (const part of trimmed.split('.').filter(Boolean)) {
    const snake = part.split('_').filter(Boolean);
    if (snake.length > 1) out.push(part);
    for (const piece of snake) {
      const camel = camelPieces(piece);
      if (camel.length > 1) out.push(piece);
      out.push(...camel);
    }
  }
  return out;
}

// A corpus's vocabulary is small next to its token count, so splitting and stemming are memoised.
const MEMO_LIMIT = 200_000;
const piecesMemo = new Map<string, string[]>();
const termMemo = new Map<string, string | null>();

function remember<V>(memo: Map<string, V>, key: string, value: V): V {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}

/** Splits text into terms: whole identifiers plus their dotted, snake_case and CamelCase pieces. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(RAW_TOKEN)) {
    const raw = match[0];
    // Most tokens in prose are plain lowercase words: no identifier splitting for them.
    if (PLAIN_WORD.test(raw)) {
      out.push(raw);
      continue;
    }
    const pieces = piecesMemo.get(raw) ?? remember(piecesMemo, raw, identifierPieces(raw));
    for (const p of pieces) out.push(p);
  }
  return out;
}

/** English words are stemmed; identifiers (`chi_max`, `mp2`) stay exact. */
export function stem(term: string): string {
  return /^[a-z]+$/.test(term) ? stemmer(term) : term;
}

/** MiniSearch's processTerm: lowercase, drop stopwords and one-letter noise, stem. */
export function processTerm(term: string): string | null {
  const known = termMemo.get(term);
  if (known !== undefined) return known;
  const t = term.toLowerCase();
  return remember(termMemo, term, t.length < 2 || STOPWORDS.has(t) ? null : stem(t));
}
