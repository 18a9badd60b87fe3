// QMP-Bench's dft_qc topic as published and as the unseen articles may be: protocol files under either
// naming or none, a TeX beside the protocol, invisible characters in subplot names, Windows line
// endings; and the whole benchmark's shape (100 tasks) through `tasks validate` and `tasks prepare`.
// Material: our synthetic dataset (tests/tasks/qmp-like-dataset.ts), no published text.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { Command } from 'commander';
import { register, type TasksCommandDeps } from '../../cli/commands/tasks.js';
import { loadDataset } from '../../lib/tasks/dataset.js';
import { loadTaskFile } from '../../lib/tasks/load-task.js';
import { escapeInvisible } from '../../lib/tasks/invisible.js';
import type { ValidationReport } from '../../lib/tasks/validation-report.js';
import type { PreparePassReport } from '../../cli/runs/prepare-pass.js';
import { loadToolchainConfig } from '../../lib/toolchains/config.js';
import type { ToolchainStatus } from '../../schemas/toolchain.js';
import { DFT_ARTICLES, INVISIBLE_SUBPLOTS, SIZES, writeQmpLikeDataset } from './qmp-like-dataset.js';

/** This machine as the tests assume it: every profile but the paper's Julia and ORCA (so both are substituted). */
export async function pythonToolchainsOnly(): Promise<ToolchainStatus[]> {
  return loadToolchainConfig().profiles.map((p) => {
    const available = p.name !== 'itensors' && p.name !== 'orca';
    return { profile: p.name, available, state: available ? 'available' : 'not installed', versions: {}, version: available ? 'test' : null, interpreter: null, language: p.language, topics: p.topics, detectMs: 0 };
  });
}

async function physvec(args: string[], extra: Partial<TasksCommandDeps> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let code: number | undefined;
  const program = new Command('physvec').exitOverride();
  register(program, { out: (l) => out.push(l), err: (l) => err.push(l), setExitCode: (c) => (code = c), preparePass: pythonToolchainsOnly, ...extra });
  await program.parseAsync(args, { from: 'user' });
  return { out, err, code };
}

test('dft_qc protocol files: the authors\' other naming, the exact name, none (naming what was tried), a TeX beside it', async (t) => {
  const ds = await writeQmpLikeDataset({ dft_qc: 26 });
  t.after(ds.cleanup);
  const dir = path.join(ds.root, 'dft_qc', 'quantum_chemistry');
  const first = await loadTaskFile(path.join(ds.root, 'dft_qc/tasks/task_dft_qc_1_1.json'));
  assert.equal(first.topic, 'dft');
  assert.equal(first.topicFolder, 'dft_qc');
  assert.equal(first.protocol.path, path.join(dir, 'ja9z01234.json'), 'jacs.9z01234 → ja9z01234.json');
  assert.equal(first.protocol.calculations, 2);
  assert.equal(first.source.found, true, 'the TeX beside the protocol, same naming');
  assert.equal(first.source.path, path.join(dir, 'ja9z01234.tex'));

  const exact = await loadTaskFile(path.join(ds.root, 'dft_qc/tasks/task_dft_qc_2_1.json'));
  assert.equal(exact.protocol.path, path.join(dir, 'inorgchem.9z05678.json'));
  const nonAcs = await loadTaskFile(path.join(ds.root, 'dft_qc/tasks/task_dft_qc_3_1.json'));
  assert.equal(nonAcs.protocol.path, path.join(dir, 'JChemPhysTest.160.014101.json'));

  const none = await loadTaskFile(path.join(ds.root, 'dft_qc/tasks/task_dft_qc_4_1.json'));
  assert.equal(none.protocol.found, false);
  assert.deepEqual(none.protocol.tried!.map((p) => path.basename(p)), ['jpca.9z04321.json', 'jp9z04321.json', '9z04321.json']);
  assert.deepEqual(none.problems, [], 'an article without a protocol file is "not published", not an error');

  const v = await physvec(['tasks', 'validate', ds.root]);
  assert.equal(v.code, 0, v.out.join('\n'));
  assert.match(v.out.find((l) => l.startsWith('task_dft_qc_4_1 '))!, /protocol not published \(tried jpca\.9z04321\.json, jp9z04321\.json, 9z04321\.json\)$/);
  assert.match(v.out.find((l) => l.startsWith('task_dft_qc_1_1 '))!, /source found .* protocol found$/);
});

test('invisible characters in subplot_name are kept as published and shown escaped; CRLF and non-ASCII load', async (t) => {
  const ds = await writeQmpLikeDataset({ dft_qc: 6 });
  t.after(ds.cleanup);
  const loaded = await loadDataset(ds.root);
  const figures = loaded.tasks.slice(0, 3).map((x) => x.task.subplot_name);
  assert.deepEqual(figures, INVISIBLE_SUBPLOTS, 'kept byte for byte');
  assert.ok(loaded.tasks.some((x) => x.encoding.crlf), 'task_dft_qc_1_2 has Windows line endings');
  assert.match(loaded.tasks[0]!.task.User_requests, /ωB97X/);

  const text = await physvec(['tasks', 'validate', ds.root]);
  const shown = ['Fig.\\u200B3_a', 'Fig._3\\uFEFF_b', 'Table\\u00A02'];
  shown.forEach((s, i) => {
    assert.equal(escapeInvisible(INVISIBLE_SUBPLOTS[i]!), s);
    assert.ok(text.out.some((l) => l.startsWith(`task_dft_qc_1_${i + 1} `) && l.includes(s)), `line of task_dft_qc_1_${i + 1} shows ${s}`);
  });
  assert.ok(!text.out.some((l) => /[\u200b\ufeff\u00a0]/.test(l.split(': warning')[0]!.split('warning:')[0]!) && l.startsWith('task_')), 'no raw invisible character in a task line');
  assert.ok(text.out.some((l) => l.startsWith('warning: ') && l.includes('subplot_name: contains invisible characters (U+200B at 4)')));
  const json = JSON.parse((await physvec(['tasks', 'validate', ds.root, '--json'])).out[0]!) as ValidationReport;
  assert.equal(json.tasks.find((x) => x.id === 'task_dft_qc_1_1')!.figure, INVISIBLE_SUBPLOTS[0], 'the JSON keeps the name as published');
});

test('the whole benchmark\'s shape: 100 tasks valid and preparable, dft counted per topic, warnings counted', async (t) => {
  const ds = await writeQmpLikeDataset(SIZES);
  t.after(ds.cleanup);
  // A directory named like a task file is skipped with a warning.
  await mkdir(path.join(ds.root, 'qcmb/tasks/task_qcmb_9_9.json'), { recursive: true });

  const v = await physvec(['tasks', 'validate', ds.root, '--json']);
  assert.equal(v.code, 0);
  const report = JSON.parse(v.out[0]!) as ValidationReport;
  assert.equal(report.summary.taskFiles, 100);
  assert.equal(report.summary.valid, 100);
  assert.deepEqual(report.summary.byTopic, { dft: 26, dmrg: 36, nqs: 18, qsim: 20 });
  assert.deepEqual([report.summary.protocolFound, report.summary.protocolNotPublished], [21, 5]);
  const warnings = report.problems.filter((p) => p.severity === 'warning');
  const count = (re: RegExp) => warnings.filter((w) => re.test(`${w.field}: ${w.message}`)).length;
  // 9 dmrg tasks with cases: one LLM-judged truth and one convergence criterion without a number each; 3 nnwf truths without a tolerance.
  assert.equal(count(/^LimitingCases\.2\.truth: has no number: it will be judged qualitatively by an LLM/), 9);
  assert.equal(count(/^ConvergenceCases\.0\.criteria: states no tolerance: the default absolute 0\.001/), 9);
  assert.equal(count(/^LimitingCases\.0\.truth: states no tolerance: the default relative 0\.01 \(1%\) is used/), 3);
  assert.equal(count(/^subplot_name: contains invisible characters/), 3);
  assert.equal(count(/is a directory named like a task file/), 1);
  assert.equal(report.summary.warnings, warnings.length);
  assert.equal(warnings.length, 25);

  const p = await physvec(['tasks', 'prepare', ds.root, '--json']);
  assert.equal(p.code, 0, p.out.join('\n').slice(0, 2000));
  const prep = JSON.parse(p.out[0]!) as PreparePassReport;
  assert.equal(prep.summary.preparable, 100);
  assert.deepEqual(Object.fromEntries(Object.entries(prep.byTopic).map(([k, s]) => [k, [s.tasks, s.preparable]])), { dft: [26, 26], dmrg: [36, 36], nqs: [18, 18], qsim: [20, 20] });
  assert.deepEqual(prep.byTopic.dft!.toolchains, { 'pyscf for orca': 26 });
  assert.deepEqual(prep.byTopic.dmrg!.toolchains, { 'tenpy for itensors (with --toolchain tenpy)': 12, tenpy: 24 });
  assert.deepEqual(prep.byTopic.dft!.sources, { 'tex': 6, protocol: 15, none: 5 });
  const noProtocol = prep.tasks.find((x) => x.id === 'task_dft_qc_4_1')!;
  assert.ok(noProtocol.lacks.some((l) => l.startsWith('protocol (not published; tried jpca.9z04321.json')));
  // The article with items no rule knows: listed as not translated, never a crash.
  const odd = prep.tasks.find((x) => x.id === 'task_dft_qc_5_1')!;
  assert.ok(odd.translation!.notTranslated >= 3, JSON.stringify(odd.translation));
  assert.equal(prep.byTopic.dmrg!.llmJudged, 9);

  const text = await physvec(['tasks', 'prepare', ds.root]);
  assert.equal(text.code, 0);
  assert.match(text.out.find((l) => l.startsWith('dft: '))!, /^dft: 26 tasks, 26 preparable; toolchain pyscf for orca 26; source tex 6, protocol 15, none 5;/);
  assert.match(text.out.at(-1)!, /^100 task files: 100 preparable, 0 not preparable; toolchains here: itensors absent, tenpy test/);
});

test('tasks show: the source, the protocol file, the translation table and the cases a run would use (issue 27.8)', async (t) => {
  const ds = await writeQmpLikeDataset({ dmrg: 1, dft_qc: 7 });
  t.after(ds.cleanup);
  // A dft task whose protocol is under the authors' other name (ja9z01234.json), beside a TeX source.
  const dft = await physvec(['tasks', 'show', path.join(ds.root, 'dft_qc/tasks/task_dft_qc_2_1.json')]);
  assert.equal(dft.code, 0, dft.err.join('\n'));
  assert.match(dft.out[0]!, /^task_dft_qc_2_1 \(dft\): /);
  assert.ok(dft.out.includes('toolchain: pyscf (standing in for orca)'), dft.out.join('\n'));
  assert.ok(dft.out.includes('protocol: dft_qc/quantum_chemistry/inorgchem.9z05678.json (2 calculations)'), dft.out.join('\n'));
  assert.match(dft.out.find((l) => l.startsWith('translation orca → pyscf: '))!, /^translation orca → pyscf: \d+ items \(\d+ equivalent, \d+ nearest, 1 no equivalent, \d+ not needed, 0 not translated\)$/);
  assert.match(dft.out.find((l) => l.startsWith('| %tddft MaxDim 60 '))!, /td\.max_memory .*\| nearest \| ORCA's MaxDim 60 allows 60 × NRoots/);
  // The opt calculation is a doublet with UKS: its ZORA-free rows aside, BP86 follows it.
  assert.match(dft.out.find((l) => l.startsWith('| BP86 '))!, /dft\.UKS\(mol\); mf\.xc = 'BP86'/);
  const json = await physvec(['tasks', 'show', path.join(ds.root, 'dft_qc/tasks/task_dft_qc_2_1.json'), '--json']);
  const doc = JSON.parse(json.out.join('\n')) as { protocol: { file: string }; translation: { rows: unknown[] } };
  assert.equal(doc.protocol.file, path.join(ds.root, 'dft_qc/quantum_chemistry/inorgchem.9z05678.json'));
  assert.ok(doc.translation.rows.length > 10);
  // A non-dft task: no protocol; its cases and how each is checked.
  const dmrg = await physvec(['tasks', 'show', path.join(ds.root, 'dmrg/tasks/task_dmrg_1_1.json'), '--dataset', ds.root]);
  assert.equal(dmrg.code, 0, dmrg.err.join('\n'));
  assert.ok(!dmrg.out.some((l) => l.startsWith('protocol:') || l.startsWith('translation')));
  assert.ok(dmrg.out.includes('toolchain: tenpy (standing in for itensors); a reproduction here needs --toolchain tenpy'), dmrg.out.join('\n'));
  assert.ok(dmrg.out.includes('limiting cases: 3'));
  assert.ok(dmrg.out.includes('     checked by code: 0 within absolute 0.000001'), dmrg.out.join('\n'));
  assert.ok(dmrg.out.includes('     checked by code: spatially-symmetric within relative 0.01 (1%) (default: none stated)'), dmrg.out.join('\n'));
  assert.ok(dmrg.out.includes('     checked by an LLM judge (no number or checkable property)'));
  assert.ok(dmrg.out.includes('     tolerance: none stated: default absolute 0.001'), dmrg.out.join('\n'));
  // tasks prepare names the protocol file each dft task resolved to.
  const prep = await physvec(['tasks', 'prepare', ds.root]);
  assert.match(prep.out.find((l) => l.startsWith('task_dft_qc_1_1 '))!, /; protocol dft_qc\/quantum_chemistry\/ja9z01234\.json, translated: /);
  assert.match(prep.out.find((l) => l.startsWith('task_dft_qc_2_1 '))!, /; protocol dft_qc\/quantum_chemistry\/inorgchem\.9z05678\.json, translated: /);
});

test('tasks prepare: a task that cannot be prepared here is named with the reason; bad input exits 2', async (t) => {
  const ds = await writeQmpLikeDataset({ dmrg: 3, dft_qc: 1 });
  t.after(ds.cleanup);
  const none = async (): Promise<ToolchainStatus[]> => (await pythonToolchainsOnly()).map((s) => ({ ...s, available: false, state: 'not installed' }));
  const r = await physvec(['tasks', 'prepare', ds.root], { preparePass: none });
  assert.equal(r.code, 1);
  assert.match(r.out.find((l) => l.startsWith('task_dmrg_1_1 '))!, /NOT PREPARABLE: task_dmrg_1_1 demands ITensors\/ITensorMPS \(Julia\), which is not installed here; no substitute is installed here/);
  assert.match(r.out.find((l) => l.startsWith('task_dft_qc_1_1 '))!, /NOT PREPARABLE: no toolchain for dft tasks is installed here/);
  const bad = await physvec(['tasks', 'prepare', ds.root, '--toolchain', 'nosuch']);
  assert.equal(bad.code, 2);
  assert.match(bad.err[0]!, /^--toolchain: unknown toolchain profile "nosuch"; known profiles: /);
  await writeFile(path.join(ds.root, 'dft_qc/tasks/task_dft_qc_1_9.json'), '{"pdf_path": ');
  const broken = await physvec(['tasks', 'prepare', ds.root]);
  assert.equal(broken.code, 2);
  assert.match(broken.out.find((l) => l.startsWith('task_dft_qc_1_9 '))!, /NOT PREPARABLE: .*task_dft_qc_1_9\.json: invalid JSON: .* line 1 column/);
  const missing = await physvec(['tasks', 'prepare', path.join(ds.root, 'nope')]);
  assert.equal(missing.code, 2);
  assert.match(missing.err[0]!, /nope: dataset root is not a directory/);
});

test('an oversized task file is refused with its size and the limit', async (t) => {
  const ds = await writeQmpLikeDataset({ dft_qc: 1 });
  t.after(ds.cleanup);
  const file = path.join(ds.root, 'dft_qc/tasks/task_dft_qc_1_1.json');
  await writeFile(file, JSON.stringify({ pdf_path: 'quantum_chemistry', pdf_name: 'jacs.9z01234', subplot_name: 'Fig._1', User_requests: 'x'.repeat(1_200_000), rubrics_name: 'r.json' }));
  const v = await physvec(['tasks', 'validate', ds.root]);
  assert.equal(v.code, 2);
  assert.ok(v.out.includes(`error: ${file}: is 1.1 MiB, over the 1 MiB limit for a task file; check that this is the right file (a task file is a few kB of text) and move large content out of it`), v.out.join('\n'));
  assert.equal(DFT_ARTICLES.length, 5);
});
