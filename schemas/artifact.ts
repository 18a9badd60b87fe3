import { z } from 'zod';

/** A reference into the content-addressed artifact store; this, not the content, travels in payloads. */
export const ArtifactRef = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 hex digest'),
  bytes: z.number().int().nonnegative(),
  name: z.string().optional(),
  mediaType: z.string().optional(),
});
export type ArtifactRef = z.infer<typeof ArtifactRef>;
