// Applying a repair that rewrites whole functions: each named function's definition is swapped
// for the new text and every other byte of the script stays as it was. A name the script does
// not define yet is inserted before main (a new helper the repair needs).
import { BadInputError } from '../errors.js';
import { FunctionReplacement, type ScriptStructure } from '../../schemas/script-structure.js';
import { allFunctions } from '../script-analysis/check-structure.js';
import { parsePart } from './parse-part.js';
import { applyEdits, dedent, type SourceEdit } from './source-edits.js';

export function applyFunctionReplacements(
  source: string,
  structure: ScriptStructure,
  replacements: FunctionReplacement[],
): string {
  if (structure.source !== source) {
    throw new BadInputError('the structure was parsed from a different text than the source to edit; parse the current script first');
  }
  const existing = allFunctions(structure);
  const replacedNames = new Set<string>();
  const edits: SourceEdit[] = [];
  const insertions: string[] = [];

  replacements.forEach((input, i) => {
    const r = FunctionReplacement.parse(input);
    if (replacedNames.has(r.name)) throw new BadInputError(`\`${r.name}\` is replaced twice`, undefined, `replacements.${i}.name`);
    replacedNames.add(r.name);
    const text = dedent(r.newSource);
    const defined = allFunctions(parsePart(text, structure.language, `replacement for ${r.name}`)).map((f) => f.name);
    if (!defined.includes(r.name)) {
      throw new BadInputError(`the replacement for \`${r.name}\` does not define \`${r.name}\` (it defines ${defined.join(', ') || 'nothing'})`, undefined, `replacements.${i}.newSource`);
    }
    const clash = defined.find((n) => n !== r.name && existing.some((f) => f.name === n));
    if (clash) {
      throw new BadInputError(`the replacement for \`${r.name}\` also redefines \`${clash}\`; replace \`${clash}\` with its own entry`, undefined, `replacements.${i}.newSource`);
    }
    const targets = existing.filter((f) => f.name === r.name);
    if (targets.length > 1) {
      throw new BadInputError(`\`${r.name}\` is defined ${targets.length} times (lines ${targets.map((t) => t.span.startLine).join(', ')}); remove the duplicates first`);
    }
    const target = targets[0];
    if (target) edits.push({ start: target.span.startOffset, end: target.span.endOffset, text });
    else insertions.push(text);
  });

  if (insertions.length) {
    const block = insertions.map((t) => `${t}\n\n\n`).join('');
    const anchor = structure.main?.span.startOffset ?? structure.entryPointCall?.span.startOffset;
    if (anchor !== undefined) edits.push({ start: anchor, end: anchor, text: block });
    else edits.push({ start: source.length, end: source.length, text: `${source.endsWith('\n') ? '\n\n' : '\n\n\n'}${block.trimEnd()}\n` });
  }
  return applyEdits(source, edits);
}
