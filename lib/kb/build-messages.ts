// What crosses the process boundary of a knowledge-base build run in a child (lib/kb/build-in-child.ts ↔
// runners/kb/build-child.ts): the request as argv JSON, progress and the outcome over the IPC channel. Both ends
// parse with these schemas, so a child from another checkout cannot hand back a malformed manifest.
import { z } from 'zod';
import { KbManifest, KbToolchain } from '../../schemas/kb.js';

export const BuildInChildRequest = z
  .object({
    force: z.boolean().optional(),
    dir: z.string().optional(),
    manualDirs: z.array(z.string()).optional(),
    sources: z.array(z.object({ toolchain: KbToolchain, packages: z.array(z.string()) })).optional(),
    concurrency: z.number().int().positive().optional(),
  })
  .strict();
export type BuildInChildRequest = z.infer<typeof BuildInChildRequest>;

export const BuildChildMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), message: z.string() }),
  z.object({
    type: z.literal('done'),
    // loose: the stored manifest's buildId and any later field travel through unchanged.
    outcome: z.object({ skipped: z.boolean(), reason: z.string(), manifest: KbManifest.loose() }),
  }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type BuildChildMessage = z.infer<typeof BuildChildMessage>;
