// Chunking: long docstrings split along their own sections into ~1-2 KB pieces that each keep the
// symbol's name; manuals (Markdown, text, HTML) cut at headings and tagged with a toolchain.
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { chunkSymbol } from '../../lib/kb/chunk-symbols.js';
import { htmlToText } from '../../lib/kb/html-text.js';
import { chunkManualText, listManualFiles, toolchainOfManual } from '../../lib/kb/manuals.js';
import { MAX_SINGLE_CHARS, splitDocument, splitSections, TARGET_CHARS } from '../../lib/kb/split-text.js';
import { IntrospectSymbolRecord } from '../../schemas/kb.js';

const para = (word: string, n: number) => Array.from({ length: n }, (_, i) => `${word} sentence number ${i} explains a detail.`).join(' ');

test('numpy, Google and tenpy option sections are recognised', () => {
  const doc = [
    'Run the DMRG algorithm.',
    '',
    'Parameters',
    '----------',
    'psi : MPS',
    '    The initial state.',
    '',
    'Options',
    '-------',
    '.. cfg:config :: DMRGEngine',
    '',
    '    max_sweeps : int',
    '        Maximum number of sweeps.',
    '',
    'Returns:',
    '    info dict',
  ].join('\n');
  const sections = splitSections(doc);
  // The bare "Options" heading has no text of its own before the cfg block, so it leaves no empty section.
  assert.deepEqual(sections.map((s) => s.heading), ['', 'Parameters', 'Options (DMRGEngine)', 'Returns']);
  assert.match(sections.find((s) => s.heading === 'Options (DMRGEngine)')!.text, /max_sweeps/);
});

test('a short docstring stays whole; a long one is cut at sections into pieces of bounded size', () => {
  assert.equal(splitDocument('short doc').length, 1);
  const long = ['Intro.', '', 'Parameters', '----------', para('param', 40), '', 'Notes', '-----', para('note', 60), '', 'Examples', '--------', para('example', 5)].join('\n');
  assert.ok(long.length > MAX_SINGLE_CHARS);
  const pieces = splitDocument(long);
  assert.ok(pieces.length >= 3, `expected several pieces, got ${pieces.length}`);
  for (const p of pieces) assert.ok(p.text.length <= TARGET_CHARS + 40, `piece of ${p.text.length} chars`);
  assert.ok(pieces.some((p) => p.section === 'Notes'));
  // Nothing is lost: every sentence lands in some piece.
  for (const word of ['param', 'note', 'example']) {
    const n = pieces.reduce((acc, p) => acc + (p.text.match(new RegExp(`${word} sentence`, 'g'))?.length ?? 0), 0);
    assert.equal(n, { param: 40, note: 60, example: 5 }[word]);
  }
});

test('every piece of a symbol carries its name and signature; the summary is the first paragraph', () => {
  const rec = IntrospectSymbolRecord.parse({
    type: 'symbol', toolchain: 'tenpy', kind: 'class', qualname: 'tenpy.algorithms.dmrg.TwoSiteDMRGEngine',
    aliases: ['tenpy.TwoSiteDMRGEngine'], signature: '(psi, model, options)', members: ['run', 'sweep'],
    doc: `Two-site DMRG engine.\n\nParameters\n----------\n${para('param', 40)}\n\nOptions\n-------\n${para('option', 40)}`,
  });
  const chunks = chunkSymbol(rec, 'tenpy');
  assert.ok(chunks.length >= 2);
  for (const [i, c] of chunks.entries()) {
    assert.equal(c.qualifiedName, rec.qualname);
    assert.equal(c.signature, rec.signature);
    assert.equal(c.summary, 'Two-site DMRG engine.');
    assert.equal(c.part, i);
    assert.equal(c.parts, chunks.length);
    assert.ok(!c.body.startsWith('Two-site DMRG engine.'));
  }
  assert.deepEqual(chunks[0]!.members, ['run', 'sweep']);
  assert.deepEqual(chunks[1]!.members, []);
});

test('HTML becomes text with its headings kept as Markdown headings', () => {
  const text = htmlToText(
    '<html><head><title>x</title><style>p{}</style></head><body><h1>ORCA <b>input</b></h1><script>alert(1)</script>' +
      '<p>Use the <code>!B3LYP</code> keyword &amp; a basis.</p><ul><li>one</li><li>two</li></ul><h2>SCF</h2><p>Converge&nbsp;tightly &#955;.</p></body></html>',
  );
  assert.match(text, /^# ORCA input$/m);
  assert.match(text, /^## SCF$/m);
  assert.match(text, /Use the !B3LYP keyword & a basis\./);
  assert.match(text, /^- one$/m);
  assert.match(text, /Converge tightly λ\./);
  assert.doesNotMatch(text, /alert|p\{\}|<\w/);
});

test('manual files are tagged by folder or file-name prefix, README.md at the root is skipped', async () => {
  assert.equal(toolchainOfManual('orca/manual.html'), 'orca');
  assert.equal(toolchainOfManual('ITensors_notes.md'), 'itensors');
  assert.equal(toolchainOfManual('docs/qiskit-aer-guide.md'), 'qiskit');
  assert.equal(toolchainOfManual('physics.md'), 'general');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'physvec-kb-manuals-'));
  await mkdir(path.join(dir, 'orca'));
  await writeFile(path.join(dir, 'README.md'), '# how to use this folder');
  await writeFile(path.join(dir, 'orca', 'input.html'), '<h1>Input</h1><p>text</p>');
  await writeFile(path.join(dir, 'tenpy-notes.md'), '# Notes\ntext');
  await writeFile(path.join(dir, 'image.png'), 'not a manual');
  const files = await listManualFiles([dir]);
  assert.deepEqual(files.map((f) => [f.rel, f.toolchain]), [['orca/input.html', 'orca'], ['tenpy-notes.md', 'tenpy']]);
});

test('a Markdown manual is cut at its headings; each section is a chunk named file#heading', () => {
  const md = `intro line\n\n# Sweeps\n${para('sweep', 3)}\n\n## Truncation\nchi_max keeps the largest Schmidt values.\n\n\`\`\`\n# not a heading inside a fence\n\`\`\``;
  const chunks = chunkManualText(md, { rel: 'itensors/dmrg.md', abs: '/x/itensors/dmrg.md', toolchain: 'itensors' });
  assert.deepEqual(chunks.map((c) => c.qualifiedName), ['manual:itensors/dmrg.md#dmrg', 'manual:itensors/dmrg.md#Sweeps', 'manual:itensors/dmrg.md#Truncation']);
  assert.ok(chunks.every((c) => c.kind === 'manual' && c.toolchain === 'itensors'));
  assert.match(chunks[2]!.body, /# not a heading inside a fence/);
});

test('a first paragraph too long for a summary is kept whole in the body', () => {
  const long = para('intro', 20);
  const rec = IntrospectSymbolRecord.parse({ type: 'symbol', toolchain: 'pyscf', kind: 'function', qualname: 'pyscf.x.f', doc: `${long}\n\nSecond paragraph.` });
  const [chunk] = chunkSymbol(rec, 'pyscf');
  assert.ok(chunk!.summary.length <= 300 && chunk!.summary.endsWith('…'));
  assert.ok(chunk!.body.includes(long) && chunk!.body.includes('Second paragraph.'));
});
