// Text surgery that leaves every byte outside the edited ranges untouched.
import type { ScriptLanguage } from '../../schemas/script-structure.js';

export interface SourceEdit {
  start: number;
  end: number;
  text: string;
}

export function applyEdits(source: string, edits: SourceEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  sorted.forEach((edit, i) => {
    const next = sorted[i + 1];
    if (next && next.end > edit.start) throw new Error(`overlapping source edits at offsets ${next.start}–${next.end} and ${edit.start}`);
  });
  return sorted.reduce((text, e) => text.slice(0, e.start) + e.text + text.slice(e.end), source);
}

/** Removes the indentation common to all non-blank lines and surrounding blank lines (LLM output is often indented). */
export function dedent(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  while (lines.length && lines[0]!.trim() === '') lines.shift();
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  const widths = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = widths.length ? Math.min(...widths) : 0;
  return lines.map((l) => l.slice(cut).replace(/[ \t]+$/, '')).join('\n');
}

/** The statement that runs main when the script is executed. */
export function entryCallSource(language: ScriptLanguage): string {
  return language === 'python' ? 'if __name__ == "__main__":\n    main()' : 'main()';
}

/** Appends the entry-point call when a script has none, so the assembled file does something. */
export function withEntryCall(script: string, hasEntryCall: boolean, language: ScriptLanguage): string {
  if (hasEntryCall) return script.endsWith('\n') ? script : `${script}\n`;
  return `${script.replace(/\s*$/, '')}\n\n\n${entryCallSource(language)}\n`;
}
