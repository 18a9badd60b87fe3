// Live progress for a running workflow: poll its `progress` query and print each change once.
import type { WorkflowHandle } from '@temporalio/client';
import type { SmokeResult } from '../../workflows/smoke.js';
import { line } from '../output.js';
import { RESULT_MARKER } from '../../schemas/script-markers.js';

export async function followSmoke(handle: WorkflowHandle, opts: { quiet?: boolean } = {}): Promise<SmokeResult> {
  let last = '';
  let done = false;
  const poll = (async () => {
    while (!done) {
      try {
        const p = await handle.query<{ stage: string; status: string }>('progress');
        const s = `stage ${p.stage} (${p.status})`;
        if (s !== last && !opts.quiet) line(`  ${s}`);
        last = s;
      } catch {
        /* not started yet */
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  try {
    const result = (await handle.result()) as SmokeResult;
    if (!opts.quiet) {
      line(`  ${result.status}: exit ${result.run.exitCode} in ${result.run.durationMs} ms`);
      const r = result.run.stdoutTail.split('\n').filter((l: string) => l.startsWith(RESULT_MARKER));
      for (const l of r) line(`  ${l}`);
    }
    return result;
  } finally {
    done = true;
    await poll;
  }
}
