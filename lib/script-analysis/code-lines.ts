// A syntax tree → the logical lines of tokens the harness builders edit. Tokens are the tree's
// leaves (a whole string literal, f-string or interpolation included, is one token; comments are
// dropped); a new physical line starts a new logical line when the statement before it is
// finished, which the tree tells: the two tokens' nearest common node holds statements.
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import type { CodeLine, CodeToken, OpenBlock } from './code-model.js';
import type { SyntaxNode } from './grammars.js';
import { definingCall, definitionKind, isTopLevelWrapper } from './syntax-kinds.js';
import { codeLine, LineIndex } from './source-text.js';

/** Nodes read as one token. */
const ATOMS: Record<ScriptLanguage, Set<string>> = {
  python: new Set(['string']),
  julia: new Set(['string_literal', 'prefixed_string_literal', 'command_literal', 'prefixed_command_literal', 'character_literal', 'macro_identifier']),
};
const COMMENTS = new Set(['comment', 'line_comment', 'block_comment', 'line_continuation']);

/** Nodes whose children are statements: a token after a newline directly under one starts a new line. */
const STATEMENT_HOLDERS: Record<ScriptLanguage, Set<string>> = {
  python: new Set([
    'module', 'block', 'decorated_definition', 'function_definition', 'class_definition', 'if_statement', 'elif_clause',
    'else_clause', 'for_statement', 'while_statement', 'try_statement', 'except_clause', 'except_group_clause',
    'finally_clause', 'with_statement', 'match_statement', 'case_clause',
  ]),
  julia: new Set([
    'source_file', 'block', 'function_definition', 'macro_definition', 'for_statement', 'while_statement', 'if_statement',
    'elseif_clause', 'else_clause', 'let_statement', 'compound_statement', 'do_clause', 'try_statement', 'catch_clause',
    'finally_clause', 'quote_statement', 'struct_definition', 'module_definition', 'abstract_definition',
    'primitive_definition',
  ]),
};

const JULIA_OPENERS = new Set(['function', 'macro', 'for', 'while', 'if', 'let', 'begin', 'do', 'try', 'quote', 'struct', 'module', 'baremodule', 'abstract', 'primitive']);
const JULIA_CLAUSES = new Set(['else', 'elseif', 'catch', 'finally']);
/** Julia's `for`/`if` in a comprehension or generator open no block. */
const JULIA_INLINE_CLAUSES = new Set(['for_clause', 'if_clause']);

function tokenKind(node: SyntaxNode, language: ScriptLanguage): CodeToken['kind'] {
  const t = node.type;
  if (t === 'macro_identifier') return 'macro';
  if (t === 'character_literal') return 'char';
  if (ATOMS[language].has(t)) return 'string';
  if (/^(integer|float|integer_literal|float_literal)$/.test(t)) return 'number';
  return /^[\p{L}_]/u.test(node.text) ? 'name' : 'op';
}

function blockRole(node: SyntaxNode): CodeToken['blockRole'] {
  if (node.isNamed) return undefined;
  if (node.type === 'end') return 'close';
  if (JULIA_CLAUSES.has(node.type)) return 'clause';
  if (JULIA_OPENERS.has(node.type) && !JULIA_INLINE_CLAUSES.has(node.parent?.type ?? '')) return 'open';
  return undefined;
}

/** The identifier a call expression calls, when it calls a plain name. */
function calledName(node: SyntaxNode, language: ScriptLanguage): SyntaxNode | null {
  if (language === 'python') {
    const fn = node.type === 'call' ? node.childForFieldName('function') : null;
    return fn?.type === 'identifier' ? fn : null;
  }
  if (node.type !== 'call_expression' && node.type !== 'broadcast_call_expression') return null;
  const fn = node.firstChild;
  return fn?.type === 'identifier' ? fn : null;
}

interface Collected {
  token: CodeToken;
  /** Type of the deepest node holding both this token and the one before it. */
  sharedWith: string | null;
  newPhysicalLine: boolean;
}

function collectTokens(root: SyntaxNode, source: string, language: ScriptLanguage): Collected[] {
  const out: Collected[] = [];
  const ancestors: SyntaxNode[] = [];
  /** Start offsets of names that are called; the calls that are a definition's own header. */
  const callees = new Set<number>();
  const headerCalls = new Set<SyntaxNode>();
  let previous: CodeToken | null = null;

  const visit = (node: SyntaxNode, nested: boolean) => {
    if (COMMENTS.has(node.type)) return;
    if (node.childCount === 0 || ATOMS[language].has(node.type)) {
      const token: CodeToken = { kind: tokenKind(node, language), text: source.slice(node.startIndex, node.endIndex), start: node.startIndex, end: node.endIndex };
      if (language === 'julia') {
        const role = blockRole(node);
        if (role) token.blockRole = role;
      }
      if (callees.has(node.startIndex) && token.kind === 'name') token.call = true;
      if (nested) token.nested = true;
      let shared: SyntaxNode | null = null;
      if (previous) {
        for (const a of ancestors) if (a.startIndex <= previous.start) shared = a;
      }
      out.push({
        token,
        sharedWith: shared?.type ?? null,
        newPhysicalLine: previous !== null && source.slice(previous.end, token.start).includes('\n'),
      });
      previous = token;
      return;
    }
    const kind = definitionKind(node, language);
    const nestedHere = nested || (kind !== null && !isTopLevel(ancestors, language));
    if (kind === 'function' && language === 'julia') {
      const header = definingCall(node);
      if (header) headerCalls.add(header);
    }
    const fn = calledName(node, language);
    if (fn && !headerCalls.has(node)) callees.add(fn.startIndex);
    ancestors.push(node);
    for (const child of node.children) visit(child, nestedHere);
    ancestors.pop();
  };
  visit(root, false);
  return out;
}

/** A definition is top level when only wrappers (decorators, macro calls) stand between it and the root. */
function isTopLevel(ancestors: SyntaxNode[], language: ScriptLanguage): boolean {
  for (let i = ancestors.length - 1; i > 0; i--) if (!isTopLevelWrapper(ancestors[i]!, language)) return false;
  return true;
}

export function codeLines(root: SyntaxNode, source: string, language: ScriptLanguage): CodeLine[] {
  const index = new LineIndex(source);
  const holders = STATEMENT_HOLDERS[language];
  const lines: CodeLine[] = [];
  const blocks: OpenBlock[] = [];
  let current: CodeToken[] = [];
  let blocksAtStart: OpenBlock[] = [];
  const snapshot = () => blocks.map((b) => ({ ...b }));
  const finish = () => {
    if (current.length) lines.push(codeLine(index, source, current, { before: blocksAtStart, after: snapshot() }));
    current = [];
  };
  for (const { token, sharedWith, newPhysicalLine } of collectTokens(root, source, language)) {
    if (newPhysicalLine && sharedWith !== null && holders.has(sharedWith)) finish();
    if (current.length === 0) blocksAtStart = snapshot();
    current.push(token);
    if (token.blockRole === 'open') {
      const first = current[0]!;
      blocks.push({ keyword: token.text, clause: token.text, indentText: source.slice(index.lineStart(first.start), first.start), line: index.lineOf(token.start) });
    } else if (token.blockRole === 'clause' && blocks.length) blocks[blocks.length - 1]!.clause = token.text;
    else if (token.blockRole === 'close') blocks.pop();
  }
  finish();
  return lines;
}
