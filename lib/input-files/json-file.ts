// Reads a JSON input file the way the published dataset needs: UTF-8 (non-ASCII allowed), an optional
// BOM, Windows line endings. Failures come back as problems naming the file and, for syntax errors,
// the line and column.
import { readFile, stat } from 'node:fs/promises';
import { duplicateKeys } from './json-duplicates.js';
import { jsonSyntaxErrorOffset } from './json-syntax.js';
import { errorAt } from './problems.js';
import type { Problem } from '../../schemas/task.js';

export interface JsonFileContent {
  value: unknown;
  bom: boolean;
  crlf: boolean;
}

export type JsonFileResult = ({ ok: true } & JsonFileContent) | { ok: false; problem: Problem };

export interface ReadJsonOptions {
  /** Refuse files larger than this (checked before reading), naming the limit. */
  maxBytes?: number;
  /** What the file is, for the size message ("task file"). */
  what?: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export async function readJsonFile(file: string, opts: ReadJsonOptions = {}): Promise<JsonFileResult> {
  let bytes: Buffer;
  try {
    if (opts.maxBytes !== undefined) {
      const { size } = await stat(file);
      if (size > opts.maxBytes) {
        const what = opts.what ?? 'JSON file';
        return { ok: false, problem: errorAt(file, `is ${formatBytes(size)}, over the ${formatBytes(opts.maxBytes)} limit for a ${what}; check that this is the right file (a ${what} is a few kB of text) and move large content out of it`) };
      }
    }
    bytes = await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const what = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, expected a JSON file' : String(err);
    return { ok: false, problem: errorAt(file, what) };
  }
  return parseJsonBytes(bytes, file);
}

export function parseJsonBytes(bytes: Uint8Array, file: string): JsonFileResult {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, problem: errorAt(file, 'not valid UTF-8 text; save the file as UTF-8') };
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: errorAt(file, `invalid JSON: ${describeSyntaxError(err as Error, text)}`) };
  }
  const dup = duplicateKeys(text)[0];
  if (dup) {
    const field = dup.parent ? `${dup.parent}.${dup.key}` : dup.key;
    return { ok: false, problem: errorAt(file, `key "${dup.key}" given twice (lines ${dup.firstLine} and ${dup.line}); JSON would keep only the last: remove one`, field) };
  }
  return { ok: true, value, bom, crlf: text.includes('\r\n') };
}

/** The parser's reason, located by line and column (Node 20 does not always give a position). */
function describeSyntaxError(err: Error, text: string): string {
  const reason = err.message.replace(/\s*in JSON at position \d+.*$/, '').replace(/, .* is not valid JSON$/s, '');
  const pos = jsonSyntaxErrorOffset(text);
  if (pos === undefined) return err.message;
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `${reason} at line ${line} column ${column}`;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Number((n / (1024 * 1024)).toFixed(1))} MiB`;
  if (n >= 1024) return `${Number((n / 1024).toFixed(1))} KiB`;
  return `${n} bytes`;
}
