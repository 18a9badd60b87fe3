// Mutants and the demo's faulty Author scripts are kept as edits of a reference solution, not as copies:
// they follow the solution when it changes, and an edit that no longer fits is an error naming it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BadInputError, describeZodError } from '../errors.js';
import { MutantMeta, type SourceEdit } from '../../schemas/validation.js';

function occurrences(text: string, part: string): number {
  let n = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) n++;
  return n;
}

/**
 * `text` with every edit applied in order. `origin` names where the edits are written (file and field),
 * `target` the script they apply to; an `old` found zero or several times is bad input naming both.
 */
export function applyEdits(text: string, edits: readonly SourceEdit[], origin: { file: string; field: string }, target: string): string {
  let out = text;
  for (const [i, edit] of edits.entries()) {
    const n = occurrences(out, edit.old);
    if (n !== 1) {
      const field = `${origin.field}.${i}.old`;
      const fix = n === 0 ? 'update it to the current text of the solution' : 'make it longer so that it is unique';
      throw new BadInputError(`${origin.file}: ${field}: occurs ${n} times in ${target} (it must occur exactly once); ${fix}`, origin.file, field);
    }
    out = out.replace(edit.old, () => edit.new);
  }
  return out;
}

export interface Mutant {
  meta: MutantMeta;
  /** The faulty script: the solution with the mutant's edits. */
  source: string;
}

/** mutants/<name>.json of a reference folder, validated, and the faulty script it describes. */
export async function loadMutant(referenceDir: string, name: string, solutionFile = 'solution.py'): Promise<Mutant> {
  const file = path.join(referenceDir, 'mutants', `${name}.json`);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new BadInputError(`${file}: not readable JSON: ${(err as Error).message}`, file);
  }
  const meta = MutantMeta.safeParse(raw);
  if (!meta.success) throw new BadInputError(describeZodError(meta.error, file), file);
  const solution = path.join(referenceDir, solutionFile);
  const source = applyEdits(await readFile(solution, 'utf8'), meta.data.edits, { file, field: 'edits' }, solution);
  return { meta: meta.data, source };
}
