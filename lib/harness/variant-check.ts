// A variant (assertion or convergence script) is legal only if it changed nothing but main.
import type { FunctionDifference, ScriptStructure } from '../../schemas/script-structure.js';
import { allFunctions } from '../script-analysis/check-structure.js';

/** Line endings and trailing blanks are formatting, not code. */
function normalized(source: string): string {
  return source
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''))
    .join('\n')
    .trim();
}

function sourcesByName(structure: ScriptStructure): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const fn of allFunctions(structure)) {
    if (fn.name === 'main') continue;
    map.set(fn.name, [...(map.get(fn.name) ?? []), normalized(fn.source)]);
  }
  return map;
}

/**
 * Element, run_ and helper functions (everything but main) that the variant modified, removed
 * or added relative to the original; must be empty for a legal variant.
 */
export function verifyElementFunctionsUnchanged(original: ScriptStructure, variant: ScriptStructure): FunctionDifference[] {
  const before = sourcesByName(original);
  const after = sourcesByName(variant);
  const differences: FunctionDifference[] = [];
  for (const [name, sources] of before) {
    const now = after.get(name);
    if (!now) differences.push({ name, change: 'removed' });
    else if (now.length !== sources.length || now.some((s, i) => s !== sources[i])) differences.push({ name, change: 'modified' });
  }
  for (const name of after.keys()) if (!before.has(name)) differences.push({ name, change: 'added' });
  return differences;
}
