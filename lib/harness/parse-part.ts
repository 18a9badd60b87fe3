// Parsing a piece of code handed to a harness builder (a new main, a repaired function, a
// background function), turning a syntax error into bad input that names the piece.
import { BadInputError } from '../errors.js';
import type { ScriptLanguage, ScriptStructure } from '../../schemas/script-structure.js';
import { parseScript } from '../script-analysis/parse-script.js';
import { ScriptSyntaxError } from '../script-analysis/source-text.js';

export function parsePart(source: string, language: ScriptLanguage, what: string): ScriptStructure {
  try {
    return parseScript(source, language);
  } catch (err) {
    if (err instanceof ScriptSyntaxError) throw new BadInputError(`${what}: ${err.message}`, undefined, what);
    throw err;
  }
}
