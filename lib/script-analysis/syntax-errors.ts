// The first syntax error tree-sitter recovered from, as one line an Author can act on. The grammar
// marks the place (an ERROR or MISSING node); the message says what is open there: a string, a
// bracket, a Julia block without its `end`.
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import type { SyntaxNode } from './grammars.js';
import { leaves } from './syntax-kinds.js';
import { LineIndex, ScriptSyntaxError } from './source-text.js';

const CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSERS = new Set(Object.values(CLOSER));
const JULIA_BLOCK_KEYWORDS = new Set(['function', 'macro', 'for', 'while', 'if', 'let', 'begin', 'do', 'try', 'quote', 'struct', 'module', 'baremodule', 'abstract', 'primitive']);
const STRING_OPENERS = new Set(['"', '"""', '`', '```', "'"]);

/**
 * The first ERROR or MISSING node in source order, or a Julia `end` the grammar took for a name
 * although it is neither in an index (`v[end]`) nor a quoted symbol (`:end`): a stray `end`.
 */
function firstProblem(node: SyntaxNode, source: string, language: ScriptLanguage): SyntaxNode | null {
  if (node.isError || node.isMissing) return node;
  const strayEnd = language === 'julia' && node.type === 'identifier' && source.slice(node.startIndex, node.endIndex) === 'end' && source[node.startIndex - 1] !== ':';
  if (strayEnd) {
    let up = node.parent;
    while (up && up.type !== 'index_expression') up = up.parent;
    if (!up) return node;
  }
  if (!node.hasError && language === 'python') return null;
  for (const child of node.children) {
    const found = child && firstProblem(child, source, language);
    if (found) return found;
  }
  return null;
}

function describe(problem: SyntaxNode, language: ScriptLanguage): { message: string; at: number } {
  if (problem.isMissing) return { message: `expected \`${problem.type}\` here`, at: problem.startIndex };
  if (problem.type === 'identifier') return { message: '`end` without a matching block opener', at: problem.startIndex };
  if (problem.text.startsWith('#=')) return { message: 'unterminated #= =# comment', at: problem.startIndex };
  const inside = leaves(problem);
  // A string opener the grammar could not pair with its closing quote.
  const quote = inside.find((l) => (l.type === 'string_start' || STRING_OPENERS.has(l.type)) && l.parent?.isError);
  if (quote) return { message: `unterminated string literal (opened with ${quote.text})`, at: quote.startIndex };
  const brackets: SyntaxNode[] = [];
  for (const leaf of inside) {
    if (CLOSER[leaf.type]) brackets.push(leaf);
    else if (CLOSERS.has(leaf.type)) {
      const open = brackets.pop();
      if (!open || CLOSER[open.type] !== leaf.type) return { message: `unmatched '${leaf.type}'`, at: leaf.startIndex };
    }
  }
  const unclosed = brackets[brackets.length - 1];
  if (unclosed) return { message: `'${unclosed.type}' is never closed`, at: unclosed.startIndex };
  if (language === 'julia') {
    const blocks: SyntaxNode[] = [];
    for (const leaf of inside) {
      if (leaf.isNamed) continue;
      if (JULIA_BLOCK_KEYWORDS.has(leaf.type) && leaf.parent?.type !== 'for_clause' && leaf.parent?.type !== 'if_clause') blocks.push(leaf);
      else if (leaf.type === 'end' && !blocks.pop()) return { message: '`end` without a matching block opener', at: leaf.startIndex };
    }
    const open = blocks[blocks.length - 1];
    if (open) return { message: `\`${open.type}\` is never closed by \`end\``, at: open.startIndex };
  }
  const snippet = problem.text.split('\n')[0]!.slice(0, 40);
  return { message: `invalid syntax at \`${snippet}\``, at: problem.startIndex };
}

/** Null when the tree is error-free. */
export function syntaxError(root: SyntaxNode, source: string, language: ScriptLanguage): ScriptSyntaxError | null {
  const problem = firstProblem(root, source, language);
  if (!problem) return null;
  const { message, at } = describe(problem, language);
  return new ScriptSyntaxError(message, new LineIndex(source).lineOf(at));
}
