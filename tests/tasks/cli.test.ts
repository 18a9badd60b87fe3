import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { Command } from 'commander';
import { register, type TasksCommandDeps } from '../../cli/commands/tasks.js';
import type { ValidationReport } from '../../lib/tasks/validation-report.js';
import { DATASET, RUBRIC_7_2, copyDataset, datasetMissing, editJson } from './dataset-fixture.js';

/** Runs `physvec <args>` through commander with captured output and exit code. */
async function physvec(args: string[], extra: Partial<TasksCommandDeps> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let code: number | undefined;
  const program = new Command('physvec').exitOverride();
  register(program, { out: (l) => out.push(l), err: (l) => err.push(l), setExitCode: (c) => (code = c), ...extra });
  await program.parseAsync(args, { from: 'user' });
  return { out, err, code };
}

test('tasks validate on the published dataset: one line per task, a summary, exit 0', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const { out, err, code } = await physvec(['tasks', 'validate', DATASET]);
  assert.equal(code, 0);
  assert.deepEqual(err, []);
  const taskLines = out.filter((l) => l.startsWith('task_'));
  assert.equal(taskLines.length, 79);
  const line72 = taskLines.find((l) => l.startsWith('task_dmrg_7_2 '))!;
  assert.match(line72, /^task_dmrg_7_2\s+dmrg\s+Fig\._1_a_right\s+source found\s+rubric ok \(19 leaves, NormCheck total 1\)\s+limiting 6, convergence 1, scientific 0$/);
  assert.match(taskLines.find((l) => l.startsWith('task_qcmb_1_1 '))!, /qsim\s+Fig\._2_a\s+source not published\s+rubric not published\s+limiting 0, convergence 0, scientific 1$/);
  // dft_qc is the dft topic; its tasks' protocol file is found under the authors' other name (ja5b10819.json).
  assert.match(taskLines.find((l) => l.startsWith('task_dft_qc_1_1 '))!, /^task_dft_qc_1_1\s+dft\s+Fig\._8_a\s+source not published\s+rubric not published\s+limiting 0, convergence 0, scientific 0  protocol found$/);
  assert.equal(
    out.at(-1),
    '79 task files (dft 6, dmrg 35, nqs 18, qsim 20): 79 valid, 0 invalid; source found 35, not published 44; protocol found 6, not published 0; ' +
      'rubric ok 4, NormCheck failed 0, invalid 0, not published 75; 0 errors, 0 warnings',
  );
});

test('tasks validate --json prints exactly one JSON document', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const { out, code } = await physvec(['tasks', 'validate', DATASET, '--json']);
  assert.equal(code, 0);
  assert.equal(out.length, 1);
  const report = JSON.parse(out[0]!) as ValidationReport;
  assert.equal(report.ok, true);
  assert.equal(report.summary.taskFiles, 79);
  assert.deepEqual(report.summary.byTopic, { dft: 6, dmrg: 35, nqs: 18, qsim: 20 });
  assert.equal(report.summary.rubric.ok, 4);
  assert.deepEqual([report.summary.withLimitingCases, report.summary.withConvergenceCases, report.summary.withScientificResults], [7, 5, 2]);
  const t72 = report.tasks.find((x) => x.id === 'task_dmrg_7_2')!;
  assert.deepEqual([t72.topic, t72.figure, t72.source, t72.rubric], ['dmrg', 'Fig._1_a_right', 'found', 'ok']);
});

test('tasks validate on a broken copy: errors name file and field, exit 2', async (t) => {
  if (datasetMissing) return t.skip(datasetMissing);
  const { root, cleanup } = await copyDataset();
  t.after(cleanup);
  await writeFile(path.join(root, 'qcmb/tasks/task_qcmb_1_1.json'), '{"pdf_path": "sources"}');
  await editJson(path.join(root, RUBRIC_7_2), (v) => {
    v.children[2].weight = 0.1;
  });
  const text = await physvec(['tasks', 'validate', root]);
  assert.equal(text.code, 2);
  assert.ok(text.out.some((l) => /^task_qcmb_1_1\s+\?\s+\?\s+INVALID/.test(l)));
  assert.ok(text.out.some((l) => /^task_dmrg_7_2\s.*rubric NormCheck failed \(19 leaves, NormCheck total 0\.8\)/.test(l)));
  const qcmbFile = path.join(root, 'qcmb/tasks/task_qcmb_1_1.json');
  for (const field of ['pdf_name', 'subplot_name', 'User_requests', 'rubrics_name']) {
    assert.ok(text.out.includes(`error: ${qcmbFile}: ${field}: Invalid input: expected string, received undefined`), field);
  }
  assert.ok(text.out.some((l) => l.startsWith(`error: ${path.join(root, RUBRIC_7_2)}: children: NormCheck failed`)));

  const json = await physvec(['tasks', 'validate', root, '--json']);
  assert.equal(json.code, 2);
  assert.equal(json.out.length, 1);
  const report = JSON.parse(json.out[0]!) as ValidationReport;
  assert.equal(report.ok, false);
  assert.equal(report.summary.invalid, 2);
  assert.equal(report.summary.errors, 5);
});

test('tasks validate: no dataset at the path is bad input; --run with no reference solution is bad input', async (t) => {
  const missing = await physvec(['tasks', 'validate', path.join(DATASET, 'no-such-dir')]);
  assert.equal(missing.code, 2);
  assert.match(missing.err.join('\n'), /not a directory/);
  const missingJson = await physvec(['tasks', 'validate', path.join(DATASET, 'no-such-dir'), '--json']);
  assert.equal(JSON.parse(missingJson.out[0]!).ok, false);
  if (datasetMissing) return t.skip(`the rest needs the published dataset: ${datasetMissing}`);
  const run = await physvec(['tasks', 'validate', DATASET, '--run']);
  assert.equal(run.code, 2);
  assert.deepEqual(run.err, ['nothing to validate (no task has a reference solution)']);
  let handed: number | undefined;
  const wired = await physvec(['tasks', 'validate', DATASET, '--run', '--json'], {
    runValidatedTasks: async (ds) => {
      handed = ds.tasks.length;
      return 0;
    },
  });
  assert.equal(handed, 79);
  assert.deepEqual([wired.code, wired.out], [0, []]);
});

test('tasks validate --help documents the flags and exit codes', async () => {
  let help = '';
  const program = new Command('physvec').exitOverride().configureOutput({ writeOut: (s) => (help += s) });
  register(program);
  await assert.rejects(program.parseAsync(['tasks', 'validate', '--help'], { from: 'user' }));
  assert.match(help, /--json/);
  assert.match(help, /--run/);
  assert.match(help, /Exit codes: 0 every file valid; 2 bad input/);
});
