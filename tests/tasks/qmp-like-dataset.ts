// A synthetic dataset in QMP-Bench's published layout, written by us (no published text): the whole
// benchmark's shape (36 dmrg, 18 nnwf, 20 qcmb, 26 dft_qc tasks) with the variants the published files
// have and the ones the 20 dft_qc tasks we have not seen may have:
//   - a dft_qc article whose protocol file uses ACS's manuscript code (jacs.9z01234 → ja9z01234.json),
//     with a TeX source beside it named the same way;
//   - an article whose protocol file has exactly the task's name (inorgchem.9z05678.json);
//   - a non-ACS article named exactly (JChemPhysTest.160.014101.json);
//   - an article with no protocol file at all;
//   - an article whose ORCA inputs carry keywords and blocks no translation rule knows;
//   - invisible characters (U+200B, U+FEFF, U+00A0) inside subplot_name, Windows line endings, a BOM,
//     non-ASCII text (ω, Å, –).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface QmpLikeDataset {
  root: string;
  cleanup: () => Promise<void>;
}

export const SIZES = { dmrg: 36, nnwf: 18, qcmb: 20, dft_qc: 26 } as const;

/** The five dft_qc articles: pdf_name, the protocol file written (or null), tasks of this article. */
export const DFT_ARTICLES = [
  { pdfName: 'jacs.9z01234', protocolFile: 'ja9z01234.json', tex: 'ja9z01234.tex', tasks: 6 },
  { pdfName: 'inorgchem.9z05678', protocolFile: 'inorgchem.9z05678.json', tex: null, tasks: 5 },
  { pdfName: 'JChemPhysTest.160.014101', protocolFile: 'JChemPhysTest.160.014101.json', tex: null, tasks: 5 },
  { pdfName: 'jpca.9z04321', protocolFile: null, tex: null, tasks: 5 },
  { pdfName: 'jacs.9z08765', protocolFile: 'ja9z08765.json', tex: null, tasks: 5 },
] as const;

const ZWSP = '\u200b';
const BOM_INSIDE = '\ufeff';
const NBSP = '\u00a0';

/** Invisible characters placed in the first three subplot names of the first article. */
export const INVISIBLE_SUBPLOTS = [`Fig.${ZWSP}3_a`, `Fig._3${BOM_INSIDE}_b`, `Table${NBSP}2`];

function orcaInputs(variant: 'plain' | 'odd'): object[] {
  if (variant === 'odd') {
    return [
      {
        id: 'odd_keywords',
        title_of_calculation: 'Calculation with items no rule knows',
        // Windows line endings inside the input, an unknown keyword, an unknown block, a stray line.
        input_command: '! PBE0 def2-SVP FOOBAR99 CPCM(Toluene)\r\n%weirdblock alpha 1\r\n beta 2\r\nend\r\nstray text outside any block\r\n%tddft nroots 5\r\n quux 7\r\nend',
        xyzfile: '* xyz 0 1\nATOMS\n*',
      },
      { id: 'garbage', title_of_calculation: 'Unbalanced', input_command: '%%% !!! ((( end end end %', xyzfile: '' },
    ];
  }
  return [
    {
      id: 'opt',
      title_of_calculation: 'Geometry optimisation – ω-free GGA',
      input_command: '! BP86 def2-TZVP def2/J RI UKS Grid5 TightSCF OPT\n%pal nprocs 2 end\n%maxcore 1000',
      xyzfile: '* xyz 0 2\nATOMS\n*',
    },
    {
      id: 'td',
      title_of_calculation: 'TDDFT at ωB97X with relativity and solvent',
      input_command: '!WB97X def2-TZVP(-f) RIJCOSX def2/J ZORA CPCM(Water)\n%tddft\n NRoots 12\n MaxDim 60\nend\n%rocis NRoots 4\nend',
      xyzfile: '* xyz 1 1\nATOMS\n*',
    },
  ];
}

export async function writeQmpLikeDataset(sizes: Partial<Record<keyof typeof SIZES, number>> = SIZES): Promise<QmpLikeDataset> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'physvec-qmp-like-'));
  const write = async (rel: string, text: string) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  };
  const json = (v: unknown) => JSON.stringify(v, null, 3);
  await write('Rubrics/rubrics.json', json({ source: '', guide_caption: '', task: '', weight: 1, children: [] }));

  // dmrg: every third demands ITensors (a TeNPy substitution), some with limiting and convergence cases.
  for (let i = 0; i < (sizes.dmrg ?? 0); i++) {
    const a = Math.floor(i / 5) + 1;
    const b = (i % 5) + 1;
    const task: Record<string, unknown> = {
      pdf_path: 'sources',
      pdf_name: `TestLett.${a}.0000${b}`,
      subplot_name: `Fig._${b}`,
      User_requests: `Only reproduce Fig. ${b}: the energy per site of an open chain of L = ${10 + b} spins.${i % 3 === 0 ? ' You MUST use ITensors and ITensorMPS packages.' : ' Use TeNPy.'}`,
      rubrics_name: `TestLett.${a}.0000${b}_Fig._${b}_rubrics.json`,
    };
    if (i % 4 === 0) {
      task.LimitingCases = [
        { content: 'With J = 0, print the energy.', truth: 'The ground state energy is 0. The absolute error tolerance is +/- 1e-6.' },
        { content: 'Print the site magnetisations.', truth: 'The magnetisation profile is spatially symmetric.' },
        { content: 'Describe the correlations.', truth: 'Correlations decay with distance.' },
      ];
      task.ConvergenceCases = [{ content: 'Print the energy.', parameter: 'chi_max', criteria: 'The energy should stop changing.' }];
    }
    const text = json(task);
    // Windows line endings in every fifth file, a BOM in every seventh.
    await write(`dmrg/tasks/task_dmrg_${a}_${b}.json`, `${i % 7 === 0 ? '\ufeff' : ''}${i % 5 === 0 ? text.replace(/\n/g, '\r\n') : text}`);
  }
  for (let i = 0; i < (sizes.nnwf ?? 0); i++) {
    const a = Math.floor(i / 6) + 1;
    const b = (i % 6) + 1;
    const task: Record<string, unknown> = {
      pdf_path: 'sources', pdf_name: `TestNQS.${a}`, subplot_name: `Fig._${b}`,
      User_requests: `Train a restricted Boltzmann machine for a chain of ${8 + b} spins with NetKet; report the variational energy.`,
      rubrics_name: `TestNQS.${a}_Fig._${b}_rubrics.json`,
    };
    if (b === 1) task.LimitingCases = [{ content: 'At h = 0 print the energy.', truth: 'The energy is -4.5.' }];
    await write(`nnwf/tasks/task_nnwf_${a}_${b}.json`, json(task));
  }
  for (let i = 0; i < (sizes.qcmb ?? 0); i++) {
    const a = Math.floor(i / 5) + 1;
    const b = (i % 5) + 1;
    const task: Record<string, unknown> = {
      pdf_path: 'sources', pdf_name: `TestQC.${a}`, subplot_name: `Fig._${b}_inset`,
      User_requests: `Simulate a ${3 + b}-qubit circuit with Qiskit Aer and plot the Loschmidt echo.`,
      rubrics_name: `TestQC.${a}_Fig._${b}_rubrics.json`,
    };
    if (b === 2) task.ScientificResults = [{ content: 'Print the echo at t = 1.', truth: 'The echo at t = 1 is 0.81, within 5 %.' }];
    await write(`qcmb/tasks/task_qcmb_${a}_${b}.json`, json(task));
  }

  // dft_qc: the five articles, their protocol files (or none) and a TeX beside the first.
  let written = 0;
  for (const [k, art] of DFT_ARTICLES.entries()) {
    if (art.protocolFile) await write(`dft_qc/quantum_chemistry/${art.protocolFile}`, json({ pdf_name: `${k}.pdf`, orca_inputs: orcaInputs(k === 4 ? 'odd' : 'plain') }));
    if (art.tex) await write(`dft_qc/quantum_chemistry/${art.tex}`, '\\documentclass{article}\\begin{document}A synthetic article about Cu complexes.\\end{document}\n');
    for (let b = 1; b <= art.tasks && written < (sizes.dft_qc ?? 0); b++, written++) {
      const subplot = k === 0 && b <= INVISIBLE_SUBPLOTS.length ? INVISIBLE_SUBPLOTS[b - 1]! : `Fig._${b}_a`;
      const task = {
        pdf_path: 'quantum_chemistry',
        pdf_name: art.pdfName,
        subplot_name: subplot,
        User_requests: `Only focus on Fig. ${b}. Reproduce the frontier orbital energies at the ωB97X/def2-TZVP level (Å units in the figure).`,
        rubrics_name: `${art.pdfName}_Fig._${b}_rubrics.json`,
      };
      const text = json(task);
      await write(`dft_qc/tasks/task_dft_qc_${k + 1}_${b}.json`, b === 2 ? text.replace(/\n/g, '\r\n') : text);
    }
  }
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}
