// A verb in cli/commands/ declares its flags, parses and checks them, and hands over to a function
// in cli/runs/ (issue 28): no `register` there is longer than 60 lines and no other function
// (an action handler, a helper) longer than 35, measured with the TypeScript compiler's own parse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import { functionLengths } from './function-lengths.js';

const MAX_REGISTER_LINES = 60;
const MAX_OTHER_LINES = 35;

test(`no register in cli/commands/ is longer than ${MAX_REGISTER_LINES} lines, no other function there longer than ${MAX_OTHER_LINES}`, () => {
  const dir = path.join(repoRoot, 'cli', 'commands');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  const all = files.flatMap((f) => functionLengths(f, readFileSync(path.join(dir, f), 'utf8')).map((fn) => ({ ...fn, file: `cli/commands/${f}` })));
  const registers = all.filter((f) => f.name === 'register');
  assert.ok(registers.length >= 10, `found only ${registers.length} register functions under ${dir}`);
  const longest = [...all].sort((a, b) => b.lines - a.lines).slice(0, 3);
  console.log(`longest cli/commands functions: ${longest.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`).join('; ')}`);
  const tooLong = all.filter((f) => f.lines > (f.name === 'register' ? MAX_REGISTER_LINES : MAX_OTHER_LINES));
  assert.deepEqual(tooLong.map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines} lines`), [], 'move the verb bodies into cli/runs/ (the command keeps its flags, their parsing and one call)');
});
