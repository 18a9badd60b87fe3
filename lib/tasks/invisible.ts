// Characters a reader cannot see (zero-width spaces, a BOM inside a string, no-break spaces, bidi
// marks). Published subplot names contain some; they are kept as published (they are part of the
// name) and shown escaped wherever a person reads them, so two names that look alike can be told apart.

/** Format (Cf), separator (Z other than the plain space) and control (Cc) characters. */
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\p{Cc}]/gu;

/** `Fig.\u200b8` for a name with a zero-width space: each invisible character as \uXXXX. */
export function escapeInvisible(s: string): string {
  return s.replace(INVISIBLE, (c) => `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
}

/** The invisible characters of `s` with their positions (0-based, in UTF-16 units). */
export function invisibleCharacters(s: string): Array<{ index: number; code: string }> {
  return [...s.matchAll(INVISIBLE)].map((m) => ({ index: m.index, code: `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` }));
}
