// Julia syntax tree → ScriptStructure. `function … end`, one-line `f(x) = …` methods and
// struct/abstract/primitive type definitions are definitions, also under macros (`@inline`);
// a docstring directly above a definition belongs to it.
import type { ScriptStructure } from '../../schemas/script-structure.js';
import { assembleStructure, type RawDefinition, type RawStatement } from './assemble-structure.js';
import type { CodeLine } from './code-model.js';
import type { SyntaxNode } from './grammars.js';
import { extentEnd, topLevelStatements } from './statements.js';
import { definingCall, isJuliaShortDefinition } from './syntax-kinds.js';

/** `x`, `x::T`, `x=1`, `x::T=1`, `xs...` → the name; an anonymous `::T` → null. */
function paramName(node: SyntaxNode | null): string | null {
  if (!node) return null;
  if (node.type === 'identifier') return node.text;
  if (node.type === 'typed_expression' || node.type === 'named_argument' || node.type === 'splat_expression' || node.type === 'optional_parameter') {
    const first = node.firstChild;
    return first?.isNamed ? paramName(first) : null;
  }
  return null;
}

/** `@m1 @m2 function …` → the function; the macros (and a `@doc` text) stay in the definition's span. */
function unwrapMacros(node: SyntaxNode): SyntaxNode {
  while (node.type === 'macrocall_expression') {
    const args = node.children.find((c) => c?.type === 'macro_argument_list');
    let only = args?.namedChildren.filter((c) => c && c.type !== 'line_comment' && c.type !== 'block_comment');
    // `@doc "text" f(x) = …` documents the definition it wraps.
    if (node.firstChild?.text === '@doc' && only?.length === 2 && only[0]!.type === 'string_literal') only = only.slice(1);
    if (!only || only.length !== 1) return node;
    node = only[0]!;
  }
  return node;
}

function calleeName(call: SyntaxNode): string {
  const callee = call.firstChild!;
  return callee.type === 'parametrized_type_expression' ? callee.firstChild!.text : callee.text;
}

function callParams(call: SyntaxNode): string[] {
  const args = call.children.find((c) => c?.type === 'argument_list');
  return (args?.namedChildren ?? []).map(paramName).filter((n): n is string => n !== null);
}

/** The first identifier down the first-child chain: the `S` of `S{T} <: A`. */
function leadingIdentifier(node: SyntaxNode | null): SyntaxNode | null {
  while (node && node.type !== 'identifier') node = node.firstNamedChild;
  return node;
}

function definition(source: string, statement: SyntaxNode, lines: CodeLine[], statementLines: number): Omit<RawDefinition, 'start' | 'end'> | null {
  const head = unwrapMacros(statement);
  const firstLine = lines.find((l) => l.start <= head.startIndex && head.startIndex < l.end);
  const firstLineEnd = firstLine ? firstLine.tokens[firstLine.tokens.length - 1]!.end : head.endIndex;

  if (head.type === 'function_definition') {
    const call = definingCall(head);
    const signature = head.children.find((c) => c?.type === 'signature');
    const bare = signature?.firstChild;
    const name = call ? calleeName(call) : bare && (bare.type === 'identifier' || bare.type === 'field_expression') ? bare.text : null;
    if (!name) return null; // anonymous `function (x) … end`
    const signatureEnd = statementLines > 1 || !call ? firstLineEnd : call.children.find((c) => c?.type === 'argument_list')!.endIndex;
    return { name, kind: 'function', signature: source.slice(head.startIndex, signatureEnd), params: call ? callParams(call) : [] };
  }
  if (head.type === 'struct_definition' || head.type === 'abstract_definition' || head.type === 'primitive_definition') {
    const name = leadingIdentifier(head.children.find((c) => c?.type === 'type_head') ?? null);
    if (!name) return null;
    return { name: name.text, kind: 'type', signature: source.slice(head.startIndex, firstLineEnd), params: [] };
  }
  if (statementLines === 1 && isJuliaShortDefinition(head)) {
    const call = definingCall(head)!;
    return { name: calleeName(call), kind: 'function', signature: source.slice(head.startIndex, head.firstChild!.endIndex), params: callParams(call) };
  }
  return null;
}

/** `"""…"""` or `@doc "…"` standing alone. */
function isDocstring(node: SyntaxNode): boolean {
  if (node.type === 'string_literal') return true;
  if (node.type !== 'macrocall_expression' || node.firstChild?.text !== '@doc') return false;
  const args = node.children.find((c) => c?.type === 'macro_argument_list')?.namedChildren ?? [];
  return args.length === 1 && args[0]!.type === 'string_literal';
}

export function parseJuliaScript(source: string, root: SyntaxNode, lines: CodeLine[]): ScriptStructure {
  const statements = topLevelStatements(root).map((nodes) => {
    const start = nodes[0]!.startIndex;
    const end = extentEnd(lines, start, nodes[nodes.length - 1]!.endIndex);
    const count = lines.filter((l) => l.tokens[0]!.start >= start && l.tokens[0]!.start < end).length;
    const def = nodes.length === 1 ? definition(source, nodes[0]!, lines, count) : null;
    return { nodes, start, end, def, startRow: nodes[0]!.startPosition.row, endRow: nodes[nodes.length - 1]!.endPosition.row };
  });
  const docstring = (k: number) => {
    const s = statements[k];
    return s !== undefined && s.nodes.length === 1 && isDocstring(s.nodes[0]!) ? s : null;
  };

  const definitions: RawDefinition[] = [];
  const others: RawStatement[] = [];
  statements.forEach((statement, k) => {
    if (!statement.def) {
      const next = statements[k + 1];
      const documentsNext = docstring(k) && next?.def && next.startRow === statement.endRow + 1;
      if (!documentsNext) others.push({ start: statement.start, end: statement.end });
      return;
    }
    const doc = docstring(k - 1);
    const documented = doc && doc.endRow + 1 === statement.startRow;
    definitions.push({ ...statement.def, start: documented ? doc.start : statement.start, end: statement.end });
  });
  return assembleStructure(source, 'julia', lines, definitions, others);
}
