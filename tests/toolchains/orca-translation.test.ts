// The ORCA input parser and the ORCA → PySCF translation table (data/protocol-translations/orca-pyscf.json):
// the items the issue names translate as a chemist would, unknown items are listed as "not translated",
// and no input — however broken — makes either throw. Inputs are our own, written for the test.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseOrcaInput } from '../../lib/protocols/orca-input.js';
import { loadTranslationTable, translateProtocol } from '../../lib/protocols/translation.js';
import { BadInputError } from '../../lib/errors.js';
import type { OrcaProtocol, TranslationRow } from '../../schemas/protocol.js';

const protocol = (...inputs: string[]): OrcaProtocol => ({ pdf_name: 'x', orca_inputs: inputs.map((input_command, i) => ({ id: `c${i + 1}`, title_of_calculation: `calc ${i + 1}`, input_command })) });
const table = () => loadTranslationTable('orca', 'pyscf')!;
const row = (rows: TranslationRow[], orca: string) => {
  const r = rows.find((x) => x.orca === orca);
  assert.ok(r, `no row for ${orca}: ${rows.map((x) => x.orca).join(' | ')}`);
  return r;
};

test('parseOrcaInput: keyword lines, blocks with settings and continuation lines, one-line blocks, coordinates', () => {
  const p = parseOrcaInput('! B3LYP def2-SVP # a comment\r\n!TightSCF\r\n%pal nprocs 4 end\n%tddft NRoots 10\nOrbWin[0] = 1,\n 2, -1, -1\nend\n%maxcore 3000\n* xyz -1 2\nH 0 0 0\n*');
  assert.deepEqual(p.keywords, ['B3LYP', 'def2-SVP', 'TightSCF']);
  assert.deepEqual(p.blocks.map((b) => b.name), ['pal', 'tddft', 'maxcore']);
  assert.deepEqual(p.blocks[0]!.settings, [{ key: 'nprocs', written: 'nprocs', value: '4' }]);
  assert.deepEqual(p.blocks[1]!.settings.map((s) => [s.key, s.value]), [['nroots', '10'], ['orbwin', '1, 2, -1, -1']]);
  assert.deepEqual(p.coordinates, { format: 'xyz', charge: '-1', multiplicity: '2' });
  assert.deepEqual(p.unparsed, ['H 0 0 0']);
});

test('the items the issue names translate keyword by keyword', () => {
  const rows = translateProtocol(
    protocol(
      '!BP86 def2-TZVP(-f) def2-TZVP/J ZORA COSMO RKS VeryTightSCF Grid4 OPT\n%basis newgto Cu "CP(PPP)" end\nend',
      '!wB97X B3LYP RIJCOSX def2-TZVP CPCM(Water) PAL8\n%tddft NRoots 40\n DoQuad true\nend\n%rocis NRoots 20\n SOC true\nend\n%mrci CIType sorci\nend',
    ),
    table(),
  );
  assert.match(row(rows, 'BP86').target, /mf\.xc = 'BP86'/);
  assert.match(row(rows, 'wB97X').target, /mf\.xc = 'WB97X'/);
  assert.equal(row(rows, 'B3LYP').target, "mf.xc = 'B3LYP5'", "ORCA's B3LYP is the VWN5 variant");
  const minusF = row(rows, 'def2-TZVP(-f)');
  assert.equal(minusF.status, 'nearest');
  assert.match(minusF.target, /def2-tzvp/);
  assert.match(minusF.differs!, /f polarisation functions of main-group elements/);
  assert.match(row(rows, 'def2-TZVP/J').target, /density_fit\(auxbasis='def2-universal-jfit'\)/);
  assert.match(row(rows, 'ZORA').target, /x2c\(\).*spin-free X2C-1e/);
  assert.match(row(rows, 'COSMO').target, /ddCOSMO|PCM/);
  assert.match(row(rows, 'CPCM(Water)').target, /eps = <dielectric constant of Water>/);
  assert.match(row(rows, 'RIJCOSX').target, /sgx/);
  assert.match(row(rows, '%tddft').target, /pyscf import tddft/);
  assert.equal(row(rows, '%tddft NRoots 40').target, 'td.nstates = 40');
  assert.equal(row(rows, '%tddft DoQuad true').status, 'no equivalent');
  assert.equal(row(rows, '%rocis').status, 'no equivalent');
  assert.match(row(rows, '%mrci').differs!, /SORCI/);
  assert.ok(!rows.some((r) => r.orca.startsWith('%rocis ')), 'settings of a block with no equivalent are not listed one by one');
  assert.equal(row(rows, 'PAL8').target, 'threads: lib.num_threads(8) (or OMP_NUM_THREADS)');
  assert.match(row(rows, '%basis newgto Cu "CP(PPP)"').differs!, /CP\(PPP\)/);
  assert.deepEqual(row(rows, 'def2-TZVP/J').usedIn, ['c1']);
  assert.ok(!rows.some((r) => r.status === 'not translated'), rows.filter((r) => r.status === 'not translated').map((r) => r.orca).join(', '));
});

test('unknown keywords, blocks, settings and stray text are listed as not translated; broken inputs never throw', () => {
  const rows = translateProtocol(protocol('! FROBNICATE PBE\n%zzz a 1\nend\n%scf wibble 3\nend', '((( nonsense'), table());
  assert.equal(row(rows, 'FROBNICATE').status, 'not translated');
  assert.equal(row(rows, '%zzz').status, 'not translated');
  assert.equal(row(rows, '%scf wibble 3').status, 'not translated');
  assert.equal(row(rows, '((( nonsense').status, 'not translated');
  assert.equal(row(rows, 'PBE').status, 'equivalent');
  // Fuzz: random mixes of ORCA-ish tokens and junk.
  const bits = ['!', '%', '*', 'end', 'END', '\n', '\r\n', ' ', '=', ',', '[0]', '"q"', '#', 'tddft', 'NRoots', '12', 'def2-SVP', '((', ')', '\u00a0', 'ω', '$1', '\\'];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 300; i++) {
    const text = Array.from({ length: 1 + Math.floor(rnd() * 40) }, () => bits[Math.floor(rnd() * bits.length)]).join('');
    assert.doesNotThrow(() => parseOrcaInput(text));
    assert.doesNotThrow(() => translateProtocol(protocol(text || 'x'), table()), text);
  }
});

test('a broken translation table is bad input naming the file and the field', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'physvec-tr-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, 'orca-pyscf.json'), JSON.stringify({ from: 'orca', to: 'pyscf', rules: [{ kind: 'keyword', match: 'BP86(', category: 'method', target: 'x', status: 'equivalent' }] }));
  assert.throws(() => loadTranslationTable('orca', 'pyscf', dir), (e: Error) => e instanceof BadInputError && /orca-pyscf\.json: rules\.0\.match: not a valid regular expression/.test(e.message));
  await writeFile(path.join(dir, 'orca-tenpy.json'), JSON.stringify({ from: 'orca', to: 'pyscf', rules: [{ kind: 'setting', match: 'x', category: 'scf', target: 'x', status: 'nearest' }] }));
  assert.throws(() => loadTranslationTable('orca', 'tenpy', dir), (e: Error) => /rules\.0\.block: a setting rule names its block/.test(e.message));
  assert.equal(loadTranslationTable('orca', 'netket', dir), undefined, 'no table: no translation, not an error');
});
