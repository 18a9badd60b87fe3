// What a node of the Python or Julia syntax tree defines, in the terms the structure needs.
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import type { SyntaxNode } from './grammars.js';

/** Nodes that only wrap a definition: Python decorators, Julia macro calls (`@inline function …`). */
export function isTopLevelWrapper(node: SyntaxNode, language: ScriptLanguage): boolean {
  if (language === 'python') return node.type === 'decorated_definition';
  return node.type === 'macrocall_expression' || node.type === 'macro_argument_list';
}

/** Julia: the call in `f(x)`, `f(x)::T`, `f(x) where T` — the shape a method header has. */
function headerCall(node: SyntaxNode | null): SyntaxNode | null {
  while (node && (node.type === 'typed_expression' || node.type === 'where_expression')) node = node.firstChild;
  if (node?.type !== 'call_expression') return null;
  const callee = node.firstChild;
  return callee?.type === 'identifier' || callee?.type === 'field_expression' ? node : null;
}

/** Julia: `f(x) = …` (also `f(x)::T = …`, `f(x) where T = …`) defines a method in one line. */
export function isJuliaShortDefinition(node: SyntaxNode): boolean {
  if (node.type !== 'assignment') return false;
  const op = node.children.find((c) => c?.type === 'operator');
  return op?.text === '=' && headerCall(node.firstChild) !== null;
}

/** The call expression that names a Julia method and its parameters, for `function f(…)` and `f(…) = …`. */
export function definingCall(node: SyntaxNode): SyntaxNode | null {
  if (node.type === 'assignment') return headerCall(node.firstChild);
  const signature = node.children.find((c) => c?.type === 'signature');
  return headerCall(signature?.firstChild ?? null);
}

/** Functions and types (classes, structs); a Python decorated definition counts as its definition. */
export function definitionKind(node: SyntaxNode, language: ScriptLanguage): 'function' | 'type' | null {
  if (language === 'python') {
    if (node.type === 'function_definition') return node.parent?.type === 'decorated_definition' ? null : 'function';
    if (node.type === 'class_definition') return node.parent?.type === 'decorated_definition' ? null : 'type';
    if (node.type === 'decorated_definition') return node.childForFieldName('definition')?.type === 'class_definition' ? 'type' : 'function';
    return null;
  }
  if (node.type === 'function_definition' || node.type === 'macro_definition') return 'function';
  if (node.type === 'struct_definition' || node.type === 'abstract_definition' || node.type === 'primitive_definition') return 'type';
  return isJuliaShortDefinition(node) ? 'function' : null;
}

/** The leaves under `node`, in source order. */
export function leaves(node: SyntaxNode, out: SyntaxNode[] = []): SyntaxNode[] {
  if (node.childCount === 0) out.push(node);
  else for (const child of node.children) if (child) leaves(child, out);
  return out;
}
