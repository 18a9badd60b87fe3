// Logical lines of a script in either language, for code that edits functions statement by statement.
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import type { CodeLine } from './code-model.js';
import { codeLines } from './code-lines.js';
import { withSyntaxTree } from './grammars.js';
import { syntaxError } from './syntax-errors.js';

export function lexScript(source: string, language: ScriptLanguage): CodeLine[] {
  return withSyntaxTree(source, language, (root) => {
    const error = syntaxError(root, source, language);
    if (error) throw error;
    return codeLines(root, source, language);
  });
}
