// Translations executed, not asserted (issue 27.8): every "equivalent" or "nearest" rule of the ORCA →
// PySCF table carries Python that runs its target against the installed PySCF on a tiny molecule and
// asserts the stated effect (the attribute is one PySCF reads, and setting it changes a value or what
// the solver does); all of them run in one Python process (tests/toolchains/pyscf_translation_checks.py).
// A rule that cannot run here says why (`unchecked`), and the table refuses a rule with neither.
// Also the ja1c09505 cases: MaxDim, a prose condition in a `!` line, RKS/UKS per calculation (inputs
// written for this test in the style of that article's protocol; the file itself is not published here).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { execa } from 'execa';
import { repoRoot, venvPython } from '../../lib/paths.js';
import { loadTranslationTable, translateProtocol } from '../../lib/protocols/translation.js';
import type { OrcaProtocol, TranslationRow } from '../../schemas/protocol.js';

function pyscfVersion(): string | undefined {
  try {
    return execFileSync(venvPython, ['-c', 'import pyscf; print(pyscf.__version__)'], { encoding: 'utf8', timeout: 60_000 }).trim();
  } catch {
    return undefined;
  }
}
const version = existsSync(venvPython) ? pyscfVersion() : undefined;

test('every equivalent/nearest rule runs against the installed PySCF and has its stated effect', { skip: version ? false : 'PySCF is not installed in .venv (scripts/bootstrap.sh installs it)', timeout: 15 * 60_000 }, async (t) => {
  const table = loadTranslationTable('orca', 'pyscf')!;
  const claims = table.rules.filter((r) => r.status === 'equivalent' || r.status === 'nearest');
  const checks = claims.flatMap((r, i) => (r.check ? [{ id: `${i}: ${r.kind} ${r.block ? `${r.block} ` : ''}${r.match}`, check: r.check }] : []));
  const unchecked = claims.filter((r) => r.unchecked);
  const run = await execa(venvPython, [path.join(repoRoot, 'tests/toolchains/pyscf_translation_checks.py')], {
    input: JSON.stringify(checks),
    reject: false,
    // One thread: the figure below is the checks' own CPU, not OpenMP spinning.
    env: { OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1', MKL_NUM_THREADS: '1', PYTHONWARNINGS: 'ignore' },
  });
  assert.equal(run.exitCode, 0, run.stderr);
  const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as { results: Record<string, string>; cpuSeconds: number };
  const failed = Object.entries(out.results).filter(([, v]) => v !== 'ok');
  t.diagnostic(`PySCF ${version}: ${checks.length} rules executed (${Object.keys(out.results).length} results), ${unchecked.length} unchecked, ${out.cpuSeconds} s CPU`);
  for (const r of unchecked) t.diagnostic(`unchecked: ${r.kind} ${r.match}: ${r.unchecked}`);
  assert.equal(Object.keys(out.results).length, checks.length);
  assert.deepEqual(failed, []);
  assert.ok(unchecked.length <= 3, `${unchecked.length} rules unchecked; install what they need and write their checks`);
});

test('the check helper refuses an attribute PySCF does not read (the old td.max_space)', { skip: version ? false : 'PySCF is not installed in .venv', timeout: 5 * 60_000 }, async () => {
  const run = await execa(venvPython, [path.join(repoRoot, 'tests/toolchains/pyscf_translation_checks.py')], {
    input: JSON.stringify([{ id: 'old maxdim', check: "known(tddft.TDDFT(rks()), 'max_space')" }, { id: 'nstates', check: "known(tddft.TDDFT(rks()), 'nstates')" }]),
    env: { OMP_NUM_THREADS: '1' },
  });
  const { results } = JSON.parse(run.stdout.trim().split('\n').pop()!) as { results: Record<string, string> };
  assert.match(results['old maxdim']!, /TDDFT has no attribute 'max_space': setting it does nothing/);
  assert.equal(results.nstates, 'ok');
});

test('a table rule that claims a match without a check (or a reason) is refused', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'physvec-tr-exec-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, 'orca-pyscf.json'), JSON.stringify({ from: 'orca', to: 'pyscf', rules: [{ kind: 'setting', block: 'tddft', match: 'maxdim', category: 'excited states', target: 'td.max_space = $value', status: 'equivalent' }] }));
  assert.throws(() => loadTranslationTable('orca', 'pyscf', dir), /rules\.0\.check: an equivalent rule gives exactly one of "check" .* and "unchecked"/);
});

// In the style of ja1c09505's protocol: UKS throughout, a prose condition in a `!` line, MaxDim.
const JA_LIKE: OrcaProtocol = {
  pdf_name: 'like_ja1c09505.pdf',
  orca_inputs: [
    { id: 'geom_opt', title_of_calculation: 'Geometry Optimization', input_command: '! UKS RIJCOSX B3LYP def2-TZVP AutoAux opt TightSCF\n! UNO CPCM(if complex carries non-zero charge)\n%scf\nMaxIter 700\nEnd', xyzfile: '*xyzfile charge spin-multiplicity x.xyz' },
    { id: 'xas_tddft', title_of_calculation: 'XAS', input_command: '! UKS RIJCOSX B3LYP ZORA ZORA-def2-TZVP AutoAux\n! CPCM UNO\n%tddft\nNRoots 200\nMaxDim 900\nend', xyzfile: '*xyzfile charge spin_multiplicity x.xyz' },
    { id: 'qro', title_of_calculation: 'Population analysis', input_command: '! ZORA NoIter MOREAD def2-TZVP', xyzfile: '*xyzfile charge spin_multiplicity x.xyz' },
    { id: 'closed', title_of_calculation: 'A singlet', input_command: '! B3LYP ZORA def2-TZVP', xyzfile: '* xyz 0 1' },
  ],
};

test('ja1c09505-style inputs: MaxDim, a prose condition and the reference of each calculation', () => {
  const rows = translateProtocol(JA_LIKE, loadTranslationTable('orca', 'pyscf')!);
  const find = (orca: string) => rows.filter((r: TranslationRow) => r.orca === orca);
  const maxdim = find('%tddft MaxDim 900')[0]!;
  assert.equal(maxdim.status, 'nearest');
  assert.match(maxdim.target, /td\.max_memory/);
  assert.doesNotMatch(maxdim.target, /max_space =/);
  assert.match(maxdim.differs!, /MaxDim 900 allows 900 × NRoots/);
  // The prose is a condition on CPCM, not five keywords.
  assert.deepEqual(rows.filter((r) => r.status === 'not translated').map((r) => r.orca), []);
  const cpcm = find('CPCM');
  assert.deepEqual(cpcm.map((r) => [r.usedIn, r.condition]), [[['geom_opt'], 'if complex carries non-zero charge'], [['xas_tddft'], undefined]]);
  // ZORA follows each calculation: UKS where the input says so, RKS for a singlet, dft.KS (by mol.spin) when unknown.
  const zora = Object.fromEntries(find('ZORA').map((r) => [r.usedIn.join(','), /dft\.(\w+)\(mol\)/.exec(r.target)?.[1]]));
  assert.deepEqual(zora, { xas_tddft: 'UKS', qro: 'KS', closed: 'RKS' });
});
