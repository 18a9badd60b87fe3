// Which role a function plays, read from its name. The prefixes are the Author agent's contract.
import { ElementCategory } from '../../schemas/script-structure.js';

export type FunctionRole = { kind: 'element'; category: ElementCategory } | { kind: 'run' } | { kind: 'main' } | { kind: 'other' };

export function roleOf(name: string): FunctionRole {
  if (name === 'main') return { kind: 'main' };
  if (name.startsWith('run_') && name.length > 4) return { kind: 'run' };
  for (const category of ElementCategory.options) {
    if (name.startsWith(`${category}_`) && name.length > category.length + 1) return { kind: 'element', category };
  }
  return { kind: 'other' };
}

// Spellings an LLM produces when it means an element prefix; anything else is an ordinary helper.
const NEAR_MISSES: Array<[RegExp, ElementCategory]> = [
  [/^sites?_/i, 'site'],
  [/^lattices?_/i, 'lattice'],
  [/^(hamiltonians?|ham|hamil)_/i, 'hamiltonian'],
  [/^(initial_?states?|init_?states?|initstates)_/i, 'initialstate'],
  [/^effectors?_/i, 'effector'],
  [/^(observables?|obs)_/i, 'observable'],
  [/^items?_/i, 'item'],
  [/^plots?_/i, 'plot'],
];

/** For a misnamed element function: the category it was probably meant to have and the correct name. */
export function intendedCategory(name: string): { category: ElementCategory; rename: string } | null {
  if (roleOf(name).kind !== 'other') return null;
  for (const [pattern, category] of NEAR_MISSES) {
    const m = pattern.exec(name);
    if (m) return { category, rename: `${category}_${name.slice(m[0].length)}` };
  }
  return null;
}
