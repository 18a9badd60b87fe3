// No function in workflows/ is longer than 80 lines (issue 17): a workflow should read as its
// algorithm, with each stage a function of its own. Measured with the TypeScript compiler's own
// parse of every file, so arrow functions, methods and nested functions all count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import { functionLengths } from './function-lengths.js';

const MAX_LINES = 80;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

test('the length check measures what it claims (a 3-line and an 82-line function)', () => {
  const long = `function long() {\n${'  x++;\n'.repeat(80)}}\nconst short = () => {\n  return 1;\n};\n`;
  const found = functionLengths('t.ts', long);
  assert.deepEqual(found.map((f) => [f.name, f.lines]), [['long', 82], ['short', 3]]);
});

test(`no function in workflows/ is longer than ${MAX_LINES} lines`, () => {
  const dir = path.join(repoRoot, 'workflows');
  const all = tsFiles(dir).flatMap((file) => functionLengths(file, readFileSync(file, 'utf8')).map((f) => ({ ...f, file: path.relative(repoRoot, file) })));
  assert.ok(all.length > 20, `found only ${all.length} functions under ${dir}`);
  const longest = [...all].sort((a, b) => b.lines - a.lines).slice(0, 3);
  console.log(`longest workflow functions: ${longest.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`).join('; ')}`);
  const tooLong = all.filter((f) => f.lines > MAX_LINES);
  assert.deepEqual(tooLong.map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines} lines`), [], `split these into stage functions of at most ${MAX_LINES} lines`);
});
