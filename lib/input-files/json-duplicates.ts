// Duplicated keys in one JSON object. JSON.parse keeps the last value without a word, so a task file
// with two "User_requests" loses one of them silently (and a later check reports the wrong thing);
// jsonc-parser's visitor sees every property with its offset, so the key and both lines can be named.
import { visit } from 'jsonc-parser';

export interface DuplicateKey {
  /** Dotted path of the object holding the key (empty at the top level). */
  parent: string;
  key: string;
  line: number;
  firstLine: number;
}

/** Every key that appears twice in the same object, in text order (the text must be valid JSON). */
export function duplicateKeys(text: string): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  const stack: Map<string, number>[] = [];
  visit(text, {
    onObjectBegin: () => void stack.push(new Map()),
    onObjectEnd: () => void stack.pop(),
    onObjectProperty: (key, _offset, _length, startLine, _startCharacter, pathSupplier) => {
      const seen = stack[stack.length - 1];
      if (!seen) return;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, startLine + 1);
      else out.push({ parent: pathSupplier().map(String).join('.'), key, line: startLine + 1, firstLine: first });
    },
  });
  return out;
}
