// What a running simulation reports about itself (schemas of the physvec_runtime files the worker
// polls) and what travels in a sandbox activity's heartbeat details: its latest progress values and
// its checkpoint manifest. Heartbeat details survive a worker crash (the server keeps the last
// ones), so the next attempt — on any worker sharing the artifact store — restores from them.
import { z } from 'zod';
import { ArtifactRef } from './artifact.js';

/** One progress value: a number, a short string, a boolean or null (the runtime coerces the rest). */
export const ProgressValue = z.union([z.number(), z.string().max(200), z.boolean(), z.null()]);

/** The progress file the runtime writes (physvec_runtime.progress), as read from the work dir. */
export const ProgressFile = z.object({
  values: z.record(z.string().max(64), ProgressValue),
  /** Unix time in seconds when the script wrote it. */
  t: z.number(),
  seq: z.number().int().optional(),
});
export type ProgressFile = z.infer<typeof ProgressFile>;

/** The latest progress of a running script, as heartbeats carry it. */
export const SimulationProgress = z.object({
  values: z.record(z.string(), ProgressValue),
  /** When the script reported it (ms since epoch). */
  at: z.number(),
});
export type SimulationProgress = z.infer<typeof SimulationProgress>;

/** One checkpoint file: its name in the checkpoint dir and its content in the store. */
export const CheckpointEntry = z.object({ name: z.string().min(1).max(128), ref: ArtifactRef });
export type CheckpointEntry = z.infer<typeof CheckpointEntry>;

export const CheckpointManifest = z.object({ files: z.array(CheckpointEntry).max(256) });
export type CheckpointManifest = z.infer<typeof CheckpointManifest>;

/** The checkpoint as heartbeats carry it: the manifest by reference, and counts for the reader. */
export const CheckpointState = z.object({
  manifest: ArtifactRef,
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** Files whose content changed and was stored, over all attempts of the run. */
  uploads: z.number().int().nonnegative(),
  uploadedBytes: z.number().int().nonnegative(),
  /** When this manifest was made (ms since epoch). */
  at: z.number(),
  /** The attempt that restored it, when this attempt started from a checkpoint. */
  restoredAtAttempt: z.number().int().optional(),
  /** Why the latest snapshot was not taken (over the size bound, too many files), if it was not. */
  skipped: z.string().optional(),
});
export type CheckpointState = z.infer<typeof CheckpointState>;

/**
 * Snapshots a run's attempt skipped at a limit (1024 MiB, 64 files, the run's stored bytes) or
 * failed to take: the latest reason and how many. Kept when later snapshots succeed: each breach is
 * told once, in `physvec status` while the run lasts and in its result (the report) after.
 */
export const CheckpointLimitBreach = z.object({ reason: z.string().max(400), skipped: z.number().int().positive() });
export type CheckpointLimitBreach = z.infer<typeof CheckpointLimitBreach>;

/** The part of a sandbox heartbeat's details that outlives the attempt. */
export const RunStateDetails = z.object({
  progress: SimulationProgress.optional(),
  checkpoint: CheckpointState.optional(),
  checkpointLimit: CheckpointLimitBreach.optional(),
});
export type RunStateDetails = z.infer<typeof RunStateDetails>;
