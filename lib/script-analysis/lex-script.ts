// Logical lines of a script in either language, for code that edits functions statement by statement.
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import type { CodeLine } from './code-model.js';
import { lexJulia } from './julia-lexer.js';
import { lexPython } from './python-lexer.js';

export function lexScript(source: string, language: ScriptLanguage): CodeLine[] {
  return language === 'python' ? lexPython(source) : lexJulia(source);
}
