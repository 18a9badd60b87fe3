// tree-sitter-julia 0.23 reads the quoted symbols `:end` and `:begin` as a `:` followed by the
// keyword, which closes (or breaks) the enclosing block — an open upstream bug
// (tree-sitter/tree-sitter-julia#104). Where the tree shows that misreading, the keyword is
// replaced by an identifier of the same length and the text parsed again: offsets stay the same,
// and tokens are always sliced from the original text.
import type { SyntaxNode } from './grammars.js';
import { leaves } from './syntax-kinds.js';

const MASK: Record<string, string> = { end: 'en_', begin: 'begi_' };

/** Keyword leaves glued to a `:` before them: `:end`, `:begin`, wherever the tree put the two. */
function misreadKeywords(root: SyntaxNode): SyntaxNode[] {
  const all = leaves(root);
  return all.filter((leaf, i) => {
    const before = all[i - 1];
    return !leaf.isNamed && MASK[leaf.type] !== undefined && before?.text === ':' && before.endIndex === leaf.startIndex;
  });
}

/** The text with misread `:end`/`:begin` keywords masked, or null when there are none. */
export function maskMisreadSymbols(root: SyntaxNode, text: string): string | null {
  const misread = misreadKeywords(root);
  if (misread.length === 0) return null;
  let masked = text;
  for (const k of misread) masked = masked.slice(0, k.startIndex) + MASK[k.type]! + masked.slice(k.endIndex);
  return masked;
}
