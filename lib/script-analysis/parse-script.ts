// Entry point of the structure parser: the language's tree-sitter grammar, then the structure
// read off the tree. Synchronous and free of I/O once grammars.ts has loaded.
import { ScriptLanguage, type ScriptStructure } from '../../schemas/script-structure.js';
import { codeLines } from './code-lines.js';
import { syntaxTree } from './grammars.js';
import { parseJuliaScript } from './julia-structure.js';
import { parsePythonScript } from './python-structure.js';
import { syntaxError } from './syntax-errors.js';

/**
 * Splits a generated script into preamble, element functions, run_ functions, main, helpers and
 * the entry-point call. Throws ScriptSyntaxError (a BadInputError naming the line) when the
 * grammar rejects the text: an unterminated string, an unbalanced bracket or `end`.
 */
export function parseScript(source: string, language: ScriptLanguage): ScriptStructure {
  const lang = ScriptLanguage.parse(language);
  const root = syntaxTree(source, lang);
  const error = syntaxError(root, source, lang);
  if (error) throw error;
  const lines = codeLines(root, source, lang);
  return lang === 'python' ? parsePythonScript(source, root, lines) : parseJuliaScript(source, root, lines);
}
