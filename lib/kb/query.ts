// What a question says beyond its words: which toolchain it names ("pyscf …", "NetKet …"), and which
// acronyms its phrases spell ("restricted Hartree-Fock" → rhf, "restricted Boltzmann machine" → rbm), since
// API names are acronyms far more often than their docstrings spell them out.
import type { KbToolchain } from '../../schemas/kb.js';
import { processTerm } from './tokenize.js';

const TOOLCHAIN_WORDS: Record<string, KbToolchain> = {
  tenpy: 'tenpy',
  netket: 'netket',
  qiskit: 'qiskit',
  pyscf: 'pyscf',
  itensors: 'itensors',
  itensor: 'itensors',
  orca: 'orca',
};
const TOOLCHAIN_WORD = new RegExp(`(?<![\\w.-])(${Object.keys(TOOLCHAIN_WORDS).join('|')})(?![\\w-])`, 'gi');

export interface AnalysedQuery {
  /** The query without the toolchain names (they are a filter or a preference, not content). */
  text: string;
  mentioned: KbToolchain[];
  acronyms: string[];
}

const MIN_ACRONYM = 2;
const MAX_ACRONYM = 4;

/** First letters of every run of 2-4 consecutive content words. */
export function phraseAcronyms(text: string): string[] {
  // Hyphens split ("Hartree-Fock"); identifiers ("chi_max", "nk.vqs") stay whole and so drop out.
  const words = text
    .split(/[^A-Za-z0-9_.]+/)
    .map((w) => w.replace(/\.+$/, ''))
    .filter((w) => /^[A-Za-z][a-z]+$/.test(w) && processTerm(w) !== null);
  const out = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    for (let n = MIN_ACRONYM; n <= MAX_ACRONYM && i + n <= words.length; n++) {
      out.add(words.slice(i, i + n).map((w) => w[0]!.toLowerCase()).join(''));
    }
  }
  return [...out];
}

export function analyseQuery(query: string): AnalysedQuery {
  const mentioned = new Set<KbToolchain>();
  const text = query.replace(TOOLCHAIN_WORD, (w) => {
    mentioned.add(TOOLCHAIN_WORDS[w.toLowerCase()]!);
    return ' ';
  });
  return { text: text.trim() || query, mentioned: [...mentioned], acronyms: phraseAcronyms(text) };
}
