// Reads the realistic generated scripts under tests/fixtures/scripts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import type { ScriptLanguage } from '../../schemas/script-structure.js';

export const fixtureDir = path.join(repoRoot, 'tests', 'fixtures', 'scripts');

export function fixture(name: string): { source: string; language: ScriptLanguage } {
  return { source: readFileSync(path.join(fixtureDir, name), 'utf8'), language: name.endsWith('.jl') ? 'julia' : 'python' };
}

/** 1-based line of the first line of `source` that starts with `prefix` (after indentation). */
export function lineOf(source: string, prefix: string): number {
  const i = source.split('\n').findIndex((l) => l.trimStart().startsWith(prefix));
  if (i === -1) throw new Error(`no line starts with ${prefix}`);
  return i + 1;
}
