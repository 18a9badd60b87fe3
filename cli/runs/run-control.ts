// The bodies of `physvec stop|cancel`, `approve`, `resume` and `upgrade` (cli/commands/ declares them): a person
// steers a run without the raw `temporal` CLI. Stop cancels the workflow — the reproduction catches
// the cancellation, writes its report and closes with Verdict `stopped`; approve and resume are the
// human gates' signals (workflows/reproduction/progress.ts), for a run paused by `--pause-after`.
import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { SA } from '../../temporal-config/search-attributes.js';
import { BadInputError } from '../../lib/errors.js';
import { line, printJson } from '../output.js';

/** Workflow types that take the human gates' signals (the reproduction and its smoke variant do not pause). */
const GATED = new Set(['reproduction']);

async function withRun<T>(workflowId: string, fn: (handle: WorkflowHandle, d: Awaited<ReturnType<WorkflowHandle['describe']>>) => Promise<T>): Promise<T> {
  const { client, connection } = await connectClient();
  try {
    const handle = client.workflow.getHandle(workflowId);
    const d = await handle.describe().catch((err: unknown) => {
      if (err instanceof WorkflowNotFoundError) throw new BadInputError(`no workflow ${workflowId} on the Temporal server: check the id with \`physvec runs\``, undefined, 'workflowId');
      throw err;
    });
    return await fn(handle, d);
  } finally {
    await connection.close();
  }
}

/** How long `stop` waits for the run to record its ending before it says the server will finish it. */
const STOP_WAIT_MS = 20_000;

export async function stopRun(workflowId: string, opts: { wait: boolean; json?: boolean }): Promise<void> {
  await withRun(workflowId, async (handle, d) => {
    if (d.status.name !== 'RUNNING') {
      const verdict = d.typedSearchAttributes.get(SA.Verdict);
      if (opts.json) return printJson({ workflowId, stopped: false, status: d.status.name, verdict: verdict ?? null });
      return line(`${workflowId} is already closed (${d.status.name.toLowerCase()}${verdict ? `, verdict ${verdict}` : ''}): nothing to stop`);
    }
    await handle.cancel();
    const closed = opts.wait ? await closedWithin(handle, STOP_WAIT_MS) : undefined;
    if (opts.json) return printJson({ workflowId, stopped: true, status: closed?.status ?? 'RUNNING', verdict: closed?.verdict ?? null, ui: uiUrl(workflowId) });
    if (closed) line(`${workflowId} stopped: ${closed.status.toLowerCase()}, verdict ${closed.verdict ?? '-'} (report: \`physvec report ${workflowId}\`)`);
    else line(`${workflowId}: stop requested; the run ends as stopped, with its report, as soon as a worker takes the request (\`physvec status ${workflowId}\`)`);
  });
}

async function closedWithin(handle: WorkflowHandle, ms: number): Promise<{ status: string; verdict?: string } | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const d = await handle.describe();
    if (d.status.name !== 'RUNNING') return { status: d.status.name, verdict: d.typedSearchAttributes.get(SA.Verdict) };
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** `approve` and `resume`: the human gates' signals, to a running reproduction. */
export async function signalGate(workflowId: string, gate: 'approve' | 'resume', opts: { note?: string; json?: boolean }): Promise<void> {
  await withRun(workflowId, async (handle, d) => {
    if (!GATED.has(d.type)) throw new BadInputError(`${workflowId} is a ${d.type} workflow: only reproductions have human gates (approve, resume)`, undefined, 'workflowId');
    if (d.status.name !== 'RUNNING') throw new BadInputError(`${workflowId} is closed (${d.status.name.toLowerCase()}): it takes no ${gate}`, undefined, 'workflowId');
    const verdict = d.typedSearchAttributes.get(SA.Verdict);
    await handle.signal(gate, opts.note);
    if (opts.json) return printJson({ workflowId, signal: gate, note: opts.note ?? null, wasPaused: verdict === 'paused' });
    const notPaused = gate === 'resume' && verdict !== 'paused' ? ` (it was not paused: verdict ${verdict ?? '-'}; a later pause will not wait)` : '';
    line(`${gate} sent to ${workflowId}${notPaused}; \`physvec status ${workflowId}\` shows where it is`);
  });
}

/** `upgrade`: moves a running run to another build (lib/temporal/upgrade-run.ts). */
export async function upgradeRunVerb(workflowId: string, opts: { to: string; json?: boolean }): Promise<void> {
  const { upgradeRun } = await import('../../lib/temporal/upgrade-run.js');
  await withRun(workflowId, async (handle) => {
    const r = await upgradeRun(handle.client.connection, handle.client.options.namespace, workflowId, opts.to);
    if (opts.json) return printJson(r);
    line(`${workflowId}: moved from build ${r.from} to ${r.to}; its next step runs on ${r.to}'s workers`);
  });
}
