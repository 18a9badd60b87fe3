// Assertion and convergence variants: the script with only `main` rewritten. Element, run_ and
// helper functions stay byte-identical, which is what makes a variant's numbers evidence about
// the script under review.
import { BadInputError } from '../errors.js';
import type { ScriptStructure } from '../../schemas/script-structure.js';
import { allFunctions } from '../script-analysis/check-structure.js';
import { parsePart } from './parse-part.js';
import { applyEdits, dedent, withEntryCall } from './source-edits.js';

/** The source of the `main` definition in `newMainSource`, which may define nothing else. */
export function newMainDefinition(newMainSource: string, language: ScriptStructure['language']): string {
  const part = parsePart(dedent(newMainSource), language, 'new main');
  if (!part.main) throw new BadInputError('the new main must define a function named `main`', undefined, 'newMainSource');
  const others = allFunctions(part).filter((f) => f.name !== 'main').map((f) => `\`${f.name}\``);
  if (others.length) {
    throw new BadInputError(`a variant may only rewrite main, but the new code also defines ${others.join(', ')}`, undefined, 'newMainSource');
  }
  const stray = [part.preamble, ...part.topLevelCode].filter((b) => b.source.trim());
  if (stray.length) {
    throw new BadInputError(
      `a variant may only rewrite main; move this top-level code inside main: ${stray[0]!.source.split('\n')[0]}`,
      undefined,
      'newMainSource',
    );
  }
  return part.main.source;
}

export function replaceMain(structure: ScriptStructure, newMainSource: string): string {
  const { source, language, main, entryPointCall } = structure;
  const text = newMainDefinition(newMainSource, language);
  let result: string;
  if (main) result = applyEdits(source, [{ start: main.span.startOffset, end: main.span.endOffset, text }]);
  else if (entryPointCall) {
    const at = entryPointCall.span.startOffset;
    result = applyEdits(source, [{ start: at, end: at, text: `${text}\n\n\n` }]);
  } else result = `${source.replace(/\s*$/, '')}\n\n\n${text}\n`;
  return withEntryCall(result, entryPointCall !== null, language);
}
