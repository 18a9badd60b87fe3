// Test helpers: where the published QMP-Bench data is, and small broken copies of it in a temp dir.
import { cp, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { qmpBenchRoot } from '../../lib/paths.js';

export const DATASET = qmpBenchRoot;
export const datasetMissing = existsSync(path.join(DATASET, 'Rubrics'))
  ? undefined
  : `QMP-Bench data not found at ${DATASET} (expected ../shared/qmp-bench/Paper_dataset beside the repo)`;

export const TASK_7_2 = 'dmrg/tasks/task_dmrg_7_2.json';
export const RUBRIC_7_2 = 'Rubrics/dmrg/PhysRevLett.100.110403_Fig._1_a_right_rubrics.json';
const COPIED = [TASK_7_2, RUBRIC_7_2, 'dmrg/sources/PhysRevLett.100.110403.tex', 'nnwf/tasks/task_nnwf_4_5.json', 'qcmb/tasks/task_qcmb_1_1.json'];

/** A small QMP-Bench-layout copy (7_2 with source and rubric, one nnwf and one qcmb task). */
export async function copyDataset(): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'physvec-qmp-'));
  for (const rel of COPIED) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await cp(path.join(DATASET, rel), path.join(root, rel));
  }
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export async function readJson(file: string): Promise<any> {
  return JSON.parse((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''));
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
}

/** Reads a JSON file, applies `edit` to the parsed value, writes it back. */
export async function editJson(file: string, edit: (v: any) => void): Promise<void> {
  const v = await readJson(file);
  edit(v);
  await writeJson(file, v);
}
