import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonBytes } from '../../lib/input-files/json-file.js';
import { jsonSyntaxErrorOffset } from '../../lib/input-files/json-syntax.js';

const bytes = (s: string) => new TextEncoder().encode(s);

test('the syntax locator agrees with JSON.parse on valid and broken texts', () => {
  const valid = ['{}', '[]', '{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]}', ' \r\n{"a":{"b":[]}}\r\n', '"\u201cq\u201d"'];
  for (const s of valid) assert.equal(jsonSyntaxErrorOffset(s), undefined, s);
  const broken: Array<[string, number]> = [
    ['{"a": 1,}', 8],
    ['{"a" 1}', 5],
    ['[1, 2', 5],
    ['{"a": tru}', 6],
    ['{"a": 01}', 7],
    ['{"a": "x\ty"}', 8],
    ['{} {}', 3],
    ['', 0],
  ];
  for (const [s, at] of broken) {
    assert.throws(() => JSON.parse(s), SyntaxError, `JSON.parse accepts ${s}`);
    assert.equal(jsonSyntaxErrorOffset(s), at, s);
  }
});

test('parseJsonBytes: BOM and CRLF noticed, errors located by line and column, bad UTF-8 refused', () => {
  const ok = parseJsonBytes(bytes('\uFEFF{\r\n  "a": "\u00e9"\r\n}'), 'f.json');
  assert.ok(ok.ok);
  assert.deepEqual([ok.value, ok.bom, ok.crlf], [{ a: '\u00e9' }, true, true]);
  const bad = parseJsonBytes(bytes('{\n  "a": 1\n  "b": 2\n}'), 'f.json');
  assert.ok(!bad.ok);
  assert.equal(bad.problem.file, 'f.json');
  assert.match(bad.problem.message, /^invalid JSON: .* at line 3 column 3$/);
  const latin1 = parseJsonBytes(new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]), 'f.json');
  assert.ok(!latin1.ok);
  assert.match(latin1.problem.message, /not valid UTF-8/);
});

test('a key given twice is an error naming the key, its field and both lines (issue 27.9)', () => {
  const r = parseJsonBytes(bytes('{\n  "pdf_name": "a",\n  "LimitingCases": [{"content": "x",\n    "content": "y"}],\n  "pdf_name": "b"\n}'), 'task.json');
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.problem.field, 'LimitingCases.0.content');
  assert.match(r.problem.message, /key "content" given twice \(lines 3 and 4\); JSON would keep only the last: remove one/);
  assert.ok(parseJsonBytes(bytes('{"a": {"x": 1}, "b": {"x": 2}}'), 'f.json').ok, 'the same key in two objects is fine');
});
