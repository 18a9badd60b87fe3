// Logical lines of a script in either language, for code that edits functions statement by statement.
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import type { CodeLine } from './code-model.js';
import { codeLines } from './code-lines.js';
import { syntaxTree } from './grammars.js';
import { syntaxError } from './syntax-errors.js';

export function lexScript(source: string, language: ScriptLanguage): CodeLine[] {
  const root = syntaxTree(source, language);
  const error = syntaxError(root, source, language);
  if (error) throw error;
  return codeLines(root, source, language);
}
