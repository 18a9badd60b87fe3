// The knowledge base's Temporal face: retrieval as an activity (the Programming verifier queries it per
// error, outside an LLM tool round) and the build (in a child process, heartbeating while it runs). Workflows
// import only the type:
//   const { kbRetrieve } = proxyActivities<KbActivities>(LIGHT_ACTIVITY);
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { BadInputError, badInputFromZod } from '../../lib/errors.js';
import { buildKbInChild } from '../../lib/kb/build-in-child.js';
import { retrieve } from '../../lib/kb/retrieve.js';
import { KbNotBuiltError, type LoadKbOptions } from '../../lib/kb/search.js';
import type { RetrieveArgsInput } from '../../schemas/kb.js';
import { HEARTBEAT_TICK_MS } from '../../temporal-config/timeouts.js';

export const KbBuildArgs = z.object({ force: z.boolean().default(false) }).strict();

export interface KbBuildSummary {
  skipped: boolean;
  reason: string;
  chunks: number;
  chunksByToolchain: Record<string, number>;
  versions: Record<string, string | null>;
  buildMs: number;
}

function nonRetryable(err: unknown): unknown {
  if (err instanceof BadInputError || err instanceof KbNotBuiltError) {
    return ApplicationFailure.create({ type: err.name, message: err.message, nonRetryable: true });
  }
  return err;
}

function heartbeat(details: unknown): void {
  try {
    Context.current().heartbeat(details);
  } catch {
    /* called outside an activity (tests, CLI): nothing to report to */
  }
}

export function createKbActivities(opts: LoadKbOptions = { autoBuild: true }) {
  return {
    /** Top-k documentation entries as compact text (see lib/kb/retrieve.ts). */
    async kbRetrieve(args: RetrieveArgsInput): Promise<string> {
      try {
        return await retrieve(args, opts);
      } catch (err) {
        throw nonRetryable(err);
      }
    },

    async kbBuild(args: z.input<typeof KbBuildArgs> = {}): Promise<KbBuildSummary> {
      const parsed = KbBuildArgs.safeParse(args);
      if (!parsed.success) throw nonRetryable(badInputFromZod(parsed.error, 'kbBuild arguments'));
      // Progress lines are seconds apart and indexing sends none, so the last one is repeated on a timer;
      // the timer fires because the build's synchronous work runs in the child, not on this event loop.
      let last: { phase?: string; message?: string } = { phase: 'starting' };
      heartbeat(last);
      const ticker = setInterval(() => heartbeat(last), HEARTBEAT_TICK_MS);
      let outcome;
      try {
        outcome = await buildKbInChild({
          force: parsed.data.force,
          dir: opts.dir,
          onProgress: (message) => heartbeat((last = { message })),
        });
      } finally {
        clearInterval(ticker);
      }
      const m = outcome.manifest;
      return {
        skipped: outcome.skipped,
        reason: outcome.reason,
        chunks: m.chunks.total,
        chunksByToolchain: m.chunks.byToolchain,
        versions: Object.fromEntries(Object.values(m.toolchains).flatMap((t) => Object.entries(t.packages))),
        buildMs: m.buildMs,
      };
    },
  };
}

export type KbActivities = ReturnType<typeof createKbActivities>;
