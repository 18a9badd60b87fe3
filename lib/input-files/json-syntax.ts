// Where a JSON text first breaks the grammar. Node's JSON.parse does not always say (for some errors
// it only quotes a snippet), and a person fixing a task file needs a line and column: jsonc-parser
// (VS Code's JSON scanner) with comments and trailing commas refused, so it is strict JSON.
import { parse, ParseErrorCode, type ParseError } from 'jsonc-parser';

/** Inside a string token jsonc-parser reports the token's start; the bad character itself is more useful. */
const IN_STRING = new Set<ParseErrorCode>([ParseErrorCode.InvalidCharacter, ParseErrorCode.InvalidEscapeCharacter, ParseErrorCode.InvalidUnicode]);
// eslint-disable-next-line no-control-regex -- raw control characters are exactly what JSON forbids inside a string
const BAD_IN_STRING = /[\u0000-\u001f]|\\(?=u(?![0-9a-fA-F]{4}))|\\(?=[^"\\/bfnrtu])/;

/** Offset of the first syntax error, or undefined if the text is valid JSON. */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (!errors.length) return undefined;
  const first = errors.reduce((a, b) => (b.offset < a.offset ? b : a));
  if (!IN_STRING.has(first.error) || text[first.offset] !== '"') return first.offset;
  const bad = BAD_IN_STRING.exec(text.slice(first.offset, first.offset + first.length));
  if (!bad) return first.offset;
  // Point at the offending character: the control character, or the one after the backslash.
  return first.offset + bad.index + (bad[0] === '\\' ? 1 : 0);
}
