// Live progress of a reproduction: one line whenever its stage, iteration or verdicts change.
import type { WorkflowHandle } from '@temporalio/client';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';
import type { ReproductionProgress } from '../../workflows/reproduction/progress.js';
import { estimatedNote } from '../../lib/llm/accounting.js';
import { line } from '../output.js';
import { liveSimulations } from './live-simulations.js';
import { retryingLlmCalls } from './live-llm-calls.js';

export function progressLine(p: ReproductionProgress): string {
  const parts = [`${p.stage}${p.iteration ? ` #${p.iteration}` : ''}`, p.status];
  if (p.rubric) parts.push(p.rubric.available ? `rubric ${p.rubric.gradeMean?.toFixed(2)}` : 'rubric n/a');
  if (p.assertions.length) parts.push(`assertions ${p.assertions.filter((a) => a.judge === 'correct').length}/${p.assertions.length}`);
  if (p.convergence.length) parts.push(`convergence ${p.convergence.map((c) => `${c.case}:${c.values.length}${c.converged ? '✓' : ''}`).join(',')}`);
  const est = p.tokens.estimatedTokens ? ` (${p.tokens.estimatedTokens} estimated)` : '';
  parts.push(`${p.tokens.inputTokens}+${p.tokens.outputTokens} tokens${est} $${p.tokens.costUsd.toFixed(4)}${p.scripted ? ' (scripted model)' : ''}`);
  return parts.join(' | ');
}

export async function followReproduction(handle: WorkflowHandle, opts: { quiet?: boolean } = {}): Promise<ReproductionResult> {
  let last = '';
  let lastSims = '';
  let polls = 0;
  let seenIterations = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      try {
        const p = await handle.query<ReproductionProgress>('progress');
        // Each finished programming iteration gets its own line, even when the stage has moved on.
        for (const h of p.programmingHistory.slice(seenIterations)) {
          if (!opts.quiet) line(`  programming #${h.iteration} verdict: unit ${(h.unitAccuracy * 100).toFixed(0)}%, integration ${(h.integrationAccuracy * 100).toFixed(0)}%, ${h.executable ? 'full script runs' : `full script fails${h.fullRunFailure ? `: ${h.fullRunFailure}` : ''}`}`);
        }
        seenIterations = p.programmingHistory.length;
        const s = progressLine(p);
        if (s !== last && !opts.quiet) line(`  ${s}`);
        last = s;
        // Every 5 s: the running simulations' own progress (heartbeat details of the sandbox runs).
        if (!opts.quiet && polls++ % 5 === 0) {
          const pending = (await handle.describe()).raw.pendingActivities;
          const sims = liveSimulations(pending).filter((x) => x.progress);
          const text = sims.map((x) => `  simulation ${x.line.replace(/ \d+m?\d*s$/, '')}`).join('\n');
          if (text && text !== lastSims) line(sims.map((x) => `  simulation ${x.line}`).join('\n'));
          lastSims = text;
          // A provider outage being ridden out: one line per retrying call every 5 s, with how long and which attempt.
          for (const c of retryingLlmCalls(pending)) line(`  ${c.line}`);
        }
      } catch {
        /* not started yet */
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  try {
    return (await handle.result()) as ReproductionResult;
  } finally {
    done = true;
    await poll;
  }
}

export function printResult(r: ReproductionResult): void {
  line(`result: ${r.status}${r.scripted ? ' (scripted model)' : ''}${r.message ? ` — ${r.message}` : ''}`);
  line(`tokens: ${r.tokens.inputTokens} in, ${r.tokens.outputTokens} out, ${r.tokens.toolCalls} tool calls, $${r.tokens.costUsd.toFixed(4)}${estimatedNote(r.tokens)}`);
  if (r.report) {
    line(`report: ${r.report.htmlPath}`);
    line(`        ${r.report.jsonPath}`);
  }
}
