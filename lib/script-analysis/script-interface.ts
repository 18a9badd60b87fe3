// A script with its function bodies left out: the preamble, each function's signature (one line each), then main and
// the entry point whole. What a writer of a replacement main needs to call the script's functions —
// their names and parameters, and how main already calls them — at a fraction of the script's tokens,
// for the prompts that rewrite a variant main whose own code failed (issue 27.2: a harness fault adds
// at most ~10 % input tokens over a clean run).
import type { ScriptStructure } from '../../schemas/script-structure.js';

export function scriptInterface(structure: ScriptStructure): string {
  // One line a function (`def f(a, b): ...`): every token saved here is saved on each rewrite.
  const stub = structure.language === 'julia' ? (signature: string) => `${signature} … end` : (signature: string) => `${signature} ...`;
  const functions = [...structure.elementFunctions, ...structure.runFunctions, ...structure.otherFunctions].sort((a, b) => a.span.startOffset - b.span.startOffset);
  return [
    structure.preamble.source.trimEnd(),
    functions.map((f) => stub(f.signature.trimEnd())).join('\n'),
    structure.main?.source.trimEnd(),
    structure.entryPointCall?.source.trimEnd(),
  ]
    .filter((part): part is string => Boolean(part))
    .join('\n\n')
    .concat('\n');
}
