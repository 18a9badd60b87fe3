// Python syntax tree → ScriptStructure. Top-level statements are the module's children (several
// on one line, `a = 1; b = 2`, are one statement); a decorated def or class starts at its first
// decorator.
import type { ScriptStructure } from '../../schemas/script-structure.js';
import { assembleStructure, type RawDefinition, type RawStatement } from './assemble-structure.js';
import type { CodeLine } from './code-model.js';
import type { SyntaxNode } from './grammars.js';
import { extentEnd, topLevelStatements } from './statements.js';

/** `x`, `x: int`, `x=1`, `x: int = 1`, `*args`, `**kwargs` → the name; `*` and `/` markers → null. */
function paramName(node: SyntaxNode | null): string | null {
  if (!node) return null;
  switch (node.type) {
    case 'identifier':
      return node.text;
    case 'default_parameter':
    case 'typed_default_parameter':
      return paramName(node.childForFieldName('name'));
    case 'typed_parameter':
    case 'list_splat_pattern':
    case 'dictionary_splat_pattern':
      return paramName(node.firstNamedChild);
    default:
      return null;
  }
}

function definition(source: string, node: SyntaxNode, end: number): RawDefinition | null {
  const def = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
  if (!def || (def.type !== 'function_definition' && def.type !== 'class_definition')) return null;
  const name = def.childForFieldName('name');
  const colon = def.children.find((c) => c?.type === ':');
  if (!name || !colon) return null;
  const params =
    def.type === 'function_definition'
      ? (def.childForFieldName('parameters')?.namedChildren ?? []).map(paramName).filter((n): n is string => n !== null)
      : [];
  return {
    name: name.text,
    kind: def.type === 'function_definition' ? 'function' : 'type',
    signature: source.slice(def.startIndex, colon.endIndex),
    params,
    start: node.startIndex,
    end,
  };
}

export function parsePythonScript(source: string, root: SyntaxNode, lines: CodeLine[]): ScriptStructure {
  const definitions: RawDefinition[] = [];
  const others: RawStatement[] = [];
  for (const statement of topLevelStatements(root)) {
    const start = statement[0]!.startIndex;
    const end = extentEnd(lines, start, statement[statement.length - 1]!.endIndex);
    const def = statement.length === 1 ? definition(source, statement[0]!, end) : null;
    if (def) definitions.push(def);
    else others.push({ start, end });
  }
  return assembleStructure(source, 'python', lines, definitions, others);
}
