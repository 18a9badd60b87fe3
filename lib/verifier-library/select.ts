// Background functions for a unit harness (paper, Appendix C): for a target element function of one
// category, the verified library functions of every other category, with their sources, so the
// programming verifier can hand them plus the target to the LLM that writes the harness entry point.
import { parseScript } from '../script-analysis/index.js';
import { ElementCategory, type BackgroundFunction } from '../../schemas/script-structure.js';
import { BadInputError } from '../errors.js';
import { getProfile, loadToolchainConfig } from '../toolchains/config.js';
import { loadVerifierIndex, readVerifierSource, type LibraryLocation } from './load.js';
import { VerifierCategory, type VerifiedWith, type VerifierLanguage } from './index-schema.js';

export interface BackgroundFunctionSource extends BackgroundFunction {
  name: string;
  category: VerifierCategory;
  signature: string;
  doc: string;
  /** Imports and constants the function needs (already merged into the selection's preamble). */
  preamble: string;
  file: string;
  status: 'verified' | 'unverified';
  verifiedWith: VerifiedWith | null;
}

export interface BackgroundSelection {
  profile: string;
  language: VerifierLanguage | null;
  targetCategory: ElementCategory;
  /** Grouped by category in pipeline order (site, lattice, hamiltonian, initialstate, effector, observable). */
  functions: BackgroundFunctionSource[];
  /** The union of the functions' import/constant lines, first occurrence order, for the harness's top. */
  preamble: string;
  categories: VerifierCategory[];
}

export interface SelectOptions extends LibraryLocation {
  /** Also offer functions that could not be verified here (default false). */
  includeUnverified?: boolean;
  /** The target's source: within a category, functions sharing more identifiers with it come first. */
  targetSource?: string;
  /** Keep at most this many functions per category (after ranking). */
  perCategory?: number;
}

const PIPELINE_ORDER = VerifierCategory.options;

export function selectBackground(profile: string, targetCategory: string, opts: SelectOptions = {}): BackgroundSelection {
  const target = ElementCategory.safeParse(targetCategory);
  if (!target.success) throw new BadInputError(`unknown element category "${targetCategory}"; one of ${ElementCategory.options.join(', ')}`);
  const config = opts.config ?? loadToolchainConfig();
  const language = getProfile(profile, config).language;
  const entries = loadVerifierIndex(profile, { ...opts, config }).filter((e) => e.category !== target.data && (opts.includeUnverified || e.status === 'verified'));
  const targetWords = opts.targetSource ? words(opts.targetSource) : null;

  const functions: BackgroundFunctionSource[] = [];
  for (const category of PIPELINE_ORDER) {
    const ranked = entries
      .filter((e) => e.category === category)
      .map((e) => ({ e, score: targetWords ? overlap(targetWords, words(`${e.name} ${e.signature} ${e.doc}`)) : 0 }))
      .sort((a, b) => b.score - a.score || a.e.name.localeCompare(b.e.name))
      .slice(0, opts.perCategory ?? Infinity);
    for (const { e } of ranked) {
      const structure = parseScript(readVerifierSource(e, { ...opts, config }), e.language);
      const fn = structure.elementFunctions.find((f) => f.name === e.name);
      if (!fn) throw new BadInputError(`${e.file} no longer defines ${e.name}; rebuild the ${profile} verifier library`);
      functions.push({
        name: e.name,
        category,
        signature: e.signature,
        doc: e.doc,
        source: fn.source,
        preamble: structure.preamble.source,
        file: e.file,
        status: e.status,
        verifiedWith: e.verifiedWith,
      });
    }
  }
  return {
    profile,
    language: language === 'orca' ? null : language,
    targetCategory: target.data,
    functions,
    preamble: mergePreambles(functions.map((f) => f.preamble)),
    categories: PIPELINE_ORDER.filter((c) => functions.some((f) => f.category === c)),
  };
}

function mergePreambles(preambles: string[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const p of preambles) {
    for (const line of p.split('\n')) {
      const key = line.trim();
      if (!key || seen.has(key)) continue;
      seen.add(key);
      lines.push(line);
    }
  }
  return lines.join('\n');
}

const STOP_WORDS = new Set(['the', 'and', 'for', 'def', 'return', 'returns', 'function', 'end', 'with', 'from', 'import', 'none', 'true', 'false', 'args', 'stands']);

function words(text: string): Set<string> {
  return new Set((text.match(/[A-Za-z][A-Za-z0-9]{2,}/g) ?? []).map((w) => w.toLowerCase()).filter((w) => !STOP_WORDS.has(w)));
}

function overlap(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const w of b) if (a.has(w)) n++;
  return n;
}
