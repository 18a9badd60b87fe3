// A host file system too full for sandbox runs, as the sandbox reports it: in the HostDiskFull
// failure's details and in the heartbeat of a run waiting for space (read back by `physvec status`).
import { z } from 'zod';

/** What a free-space probe answers (the fields of node's fs.statfs that matter here; sizes in blocks of `bsize`). */
export const FileSystemSpace = z.object({
  bsize: z.number().int().positive(),
  blocks: z.number().int().nonnegative(),
  bavail: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  ffree: z.number().int().nonnegative(),
});
export type FileSystemSpace = z.infer<typeof FileSystemSpace>;

export const HostDiskShortage = z.object({
  /** The path a run writes to (work dir, sandbox root, artifact store) whose file system is short. */
  path: z.string(),
  /** The mount point of that file system: where space must be freed. */
  mount: z.string(),
  freeBytes: z.number().nonnegative(),
  sizeBytes: z.number().nonnegative(),
  /** Below this much free space a run is not started and a failed one is the host's fault. */
  thresholdBytes: z.number().nonnegative(),
  /** Set when it is the file system's inodes, not its bytes, that ran out. */
  freeInodes: z.number().int().nonnegative().optional(),
});
export type HostDiskShortage = z.infer<typeof HostDiskShortage>;
