// physvec report <workflow-id> — where a reproduction's evidence report is, and its summary. A host
// that lacks the report (a worker on another host wrote it) copies its folder from the bucket first.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { reportDir } from '../../lib/reports/dirs.js';
import { BadInputError } from '../../lib/errors.js';
import { line, printJson, EXIT } from '../output.js';

/** The parts of report.json (activities/pipeline/report.ts) this prints. */
interface ReportDoc {
  status: string;
  notices: string[];
  task: { id: string };
  stageReached: string;
  programming: unknown[];
  scientific: { assertions: { case: string; judge: string }[] }[];
  convergence: { case: string; converged: boolean; convergedAt: number | null }[];
  tokens: { inputTokens: number; outputTokens: number; costUsd: number };
}

/** Copies the report folder `dir` from the artifact store's bucket, when the store is one and has it; " or in <url>" when it was looked for there. */
async function fromBucket(dir: string): Promise<string> {
  const [{ artifactStore }, { fetchFolder, folderUrl, reportBucket }] = await Promise.all([import('../../lib/artifacts/store.js'), import('../../lib/reports/published.js')]);
  const bucket = reportBucket(artifactStore());
  if (!bucket) return '';
  if (await fetchFolder(bucket, dir)) process.stderr.write(`physvec: copied the report from ${folderUrl(bucket, dir)} into ${dir}\n`);
  return ` or in ${folderUrl(bucket, dir)}`;
}

export function register(program: Command): void {
  program
    .command('report <workflowId>')
    .description('print where the evidence report of a reproduction is, with a summary')
    .option('--json', 'print one JSON document')
    .action(async (workflowId: string, opts: { json?: boolean }) => {
      const dir = reportDir(workflowId);
      const jsonPath = path.join(dir, 'report.json');
      const looked = existsSync(jsonPath) ? '' : await fromBucket(dir);
      if (!existsSync(jsonPath)) throw new BadInputError(`no report for ${workflowId} under ${dir}${looked}: the workflow has not finished, or ran with another PHYSVEC_STATE_DIR or PHYSVEC_ARTIFACTS_URL`);
      const r = JSON.parse(readFileSync(jsonPath, 'utf8')) as ReportDoc;
      const summary = {
        workflowId, status: r.status, notices: r.notices, task: r.task.id, stageReached: r.stageReached,
        html: path.join(dir, 'report.html'), json: jsonPath,
        programmingIterations: r.programming.length, scientificIterations: r.scientific.length,
        assertions: r.scientific.at(-1)?.assertions.map((a) => `${a.case}:${a.judge}`) ?? [],
        convergence: r.convergence.map((c) => `${c.case}:${c.converged ? `converged at ${c.convergedAt}` : 'not converged'}`),
        tokens: r.tokens,
      };
      if (opts.json) printJson(summary);
      else {
        for (const n of r.notices) line(n);
        line(`${workflowId}: ${r.status} (${r.task.id}, stage reached ${r.stageReached})`);
        line(`report: ${summary.html}`);
        line(`programming iterations ${summary.programmingIterations}, scientific iterations ${summary.scientificIterations}`);
        line(`assertions: ${summary.assertions.join(' ') || 'none'}`);
        line(`convergence: ${summary.convergence.join(' ') || 'none'}`);
        line(`tokens: ${r.tokens.inputTokens} in / ${r.tokens.outputTokens} out, $${r.tokens.costUsd.toFixed(4)}`);
      }
      if (r.status !== 'passed') process.exitCode = EXIT.failed;
    });
}
