// The Python and Julia grammars (tree-sitter, compiled to WebAssembly), loaded once per process.
// Loading is asynchronous, so this module awaits it at top level: every importer gets ready
// parsers and parseScript stays synchronous. It reads two .wasm files from node_modules, so it
// belongs to activities and tools, never to workflow code.
import { createRequire } from 'node:module';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';
import type { ScriptLanguage } from '../../schemas/script-structure.js';
import { maskMisreadSymbols } from './julia-symbols.js';

export type { Node as SyntaxNode } from 'web-tree-sitter';

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

function parse(text: string, language: ScriptLanguage): Tree {
  const tree = parserFor(language).parse(text);
  if (!tree) throw new Error(`the ${language} parser returned no tree`);
  return tree;
}

/**
 * Parses `source` and hands the root node to `use`. Trees live in WebAssembly memory, which the
 * garbage collector does not see, so the tree is freed as soon as `use` returns: nothing derived
 * from it may keep a node. Node text may differ from `source` where julia-symbols.ts masked a
 * keyword (same length, same offsets): read text by slicing `source`.
 */
export function withSyntaxTree<T>(source: string, language: ScriptLanguage, use: (root: Node) => T): T {
  let tree = parse(source, language);
  // Each round masks the symbols the previous parse misread; a few rounds settle any script.
  for (let round = 0; language === 'julia' && round < 4; round++) {
    const masked = maskMisreadSymbols(tree.rootNode, tree.rootNode.text);
    if (masked === null) break;
    tree.delete();
    tree = parse(masked, language);
  }
  try {
    return use(tree.rootNode);
  } finally {
    tree.delete();
  }
}
