// The Python and Julia grammars (tree-sitter, compiled to WebAssembly), loaded once per process.
// Loading is asynchronous, so this module awaits it at top level: every importer gets ready
// parsers and parseScript stays synchronous. It reads two .wasm files from node_modules, so it
// belongs to activities and tools, never to workflow code.
import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import { maskMisreadSymbols } from './julia-symbols.js';
import { SyntaxNode } from './syntax-node.js';

export { SyntaxNode } from './syntax-node.js';

const require = createRequire(import.meta.url);

await Parser.init();
const languages: Record<ScriptLanguage, Language> = {
  python: await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm')),
  julia: await Language.load(require.resolve('tree-sitter-julia/tree-sitter-julia.wasm')),
};
const parsers = new Map<ScriptLanguage, Parser>();

function parserFor(language: ScriptLanguage): Parser {
  let parser = parsers.get(language);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(languages[language]);
    parsers.set(language, parser);
  }
  return parser;
}

/**
 * The tree copied into plain objects in one cursor walk, then freed: trees live in WebAssembly
 * memory, which the garbage collector does not see, and every property read through the node API
 * is a call into WebAssembly (a node's parent is even found by walking down from the root).
 */
function plainTree(text: string, language: ScriptLanguage): SyntaxNode {
  const tree: Tree | null = parserFor(language).parse(text);
  if (!tree) throw new Error(`the ${language} parser returned no tree`);
  const cursor = tree.walk();
  try {
    const copy = (parent: SyntaxNode | null, field: string | null): SyntaxNode => {
      const node = new SyntaxNode(text, parent, field, {
        type: cursor.nodeType,
        isNamed: cursor.nodeIsNamed,
        isMissing: cursor.nodeIsMissing,
        startIndex: cursor.startIndex,
        endIndex: cursor.endIndex,
        startRow: cursor.startPosition.row,
        endRow: cursor.endPosition.row,
      });
      if (cursor.gotoFirstChild()) {
        do node.children.push(copy(node, cursor.currentFieldName));
        while (cursor.gotoNextSibling());
        cursor.gotoParent();
      }
      node.hasError = node.isError || node.isMissing || node.children.some((c) => c.hasError);
      return node;
    };
    return copy(null, null);
  } finally {
    cursor.delete();
    tree.delete();
  }
}

/**
 * The syntax tree of `source`. Node text may differ from `source` where julia-symbols.ts masked
 * a keyword (same length, same offsets): read text by slicing `source`.
 */
export function syntaxTree(source: string, language: ScriptLanguage): SyntaxNode {
  let root = plainTree(source, language);
  // Each round masks the symbols the previous parse misread; a few rounds settle any script.
  for (let round = 0; language === 'julia' && round < 4; round++) {
    const masked = maskMisreadSymbols(root, root.text);
    if (masked === null) break;
    root = plainTree(masked, language);
  }
  return root;
}
