// Entry point of the structure parser. Pure and synchronous (no I/O), so workflows may call it.
import { ScriptLanguage, type ScriptStructure } from '../../schemas/script-structure.js';
import { parseJuliaScript } from './julia-structure.js';
import { parsePythonScript } from './python-structure.js';

/**
 * Splits a generated script into preamble, element functions, run_ functions, main, helpers and
 * the entry-point call. Throws ScriptSyntaxError (a BadInputError naming the line) when the text
 * cannot be tokenized: an unterminated string, an unbalanced bracket or `end`.
 */
export function parseScript(source: string, language: ScriptLanguage): ScriptStructure {
  const lang = ScriptLanguage.parse(language);
  return lang === 'python' ? parsePythonScript(source) : parseJuliaScript(source);
}
