// Which packages a task text demands ("You MUST use ITensors and ITensorMPS packages."), found by the
// profiles' demandNames as whole words in any case, and the sentence the demand sits in.
import type { ToolchainProfile } from '../../schemas/toolchain.js';

export interface DemandMatch {
  profile: ToolchainProfile;
  /** The name as written in the text. */
  written: string;
  index: number;
}

export interface Sentence {
  text: string;
  start: number;
  end: number;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Any of the names as a whole word (letters, digits and _ do not continue it), case-insensitive. */
export function namesPattern(names: readonly string[]): RegExp {
  const alternatives = [...names].sort((a, b) => b.length - a.length).map(escape).join('|');
  return new RegExp(`(?<![A-Za-z0-9_])(?:${alternatives})(?![A-Za-z0-9_])`, 'gi');
}

/** Every demand of any of `profiles` in `text`, earliest first. */
export function findDemands(text: string, profiles: readonly ToolchainProfile[]): DemandMatch[] {
  const matches: DemandMatch[] = [];
  for (const profile of profiles) {
    for (const m of text.matchAll(namesPattern(profile.demandNames))) matches.push({ profile, written: m[0], index: m.index });
  }
  return matches.sort((a, b) => a.index - b.index);
}

/**
 * Sentences end at . ! or ? followed by whitespace or the end, so "ITensors.jl" and "0.1" stay inside
 * their sentence. Whitespace between sentences belongs to neither.
 */
export function splitSentences(text: string): Sentence[] {
  return [...text.matchAll(/\S[\s\S]*?(?:[.!?](?=\s|$)|$)/g)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}
