// Running simulations of a workflow, read from its pending activities' heartbeat details (describe()
// → pendingActivities[].heartbeatDetails): the sandbox activity heartbeats the script's latest
// physvec_runtime progress values and checkpoint, so the CLI shows them without asking the workflow
// (no query, no workflow change, answers while the orchestration worker is down). A run held up by
// the host's full disk says so: the attempt waiting for space carries the shortage in its details,
// and a failed attempt awaiting its retry has the HostDiskFull failure as its last failure. A
// checkpoint skipped at a limit (too large, too many files, the run's stored bytes) is said too.
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { describeShortage } from '../../runners/sandbox/host-disk.js';
import { HostDiskShortage } from '../../schemas/host-disk.js';
import { checkpointBreachLine } from '../../runners/sandbox/run-state/index.js';
import { RunStateDetails, type CheckpointLimitBreach, type CheckpointState, type SimulationProgress } from '../../schemas/run-state.js';

type PendingActivity = temporal.api.workflow.v1.IPendingActivityInfo;

export interface LiveSimulation {
  activity: string;
  label: string | null;
  attempt: number;
  elapsedMs: number | null;
  progress: SimulationProgress | null;
  checkpoint: CheckpointState | null;
  /** Snapshots skipped at a checkpoint limit (or failed), with the latest reason. */
  checkpointLimit: CheckpointLimitBreach | null;
  /** The host file system this attempt waits on before it starts (heartbeat phase 'waiting-for-disk'). */
  waitingForDisk: HostDiskShortage | null;
  /** The previous attempt's failure (the server keeps it while the activity is retried), e.g. HostDiskFull. */
  lastFailure: { type: string | null; message: string } | null;
  /** One line for people: "final run: sweep 7/20, E -15.4066 (attempt 2; checkpoint …, restored) 3m12s". */
  line: string;
}

function decode(activity: PendingActivity): Record<string, unknown> {
  const payload = activity.heartbeatDetails?.payloads?.[0];
  if (!payload) return {};
  try {
    const v = defaultPayloadConverter.fromPayload(payload as Payload);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** What a job label means to a reader (`full` is the reproduction's final run). */
function labelText(label: string | null, activity: string): string {
  if (label === 'full') return 'final run';
  return label ?? activity;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

function valueText(v: unknown): string {
  if (typeof v === 'number' && !Number.isInteger(v)) return String(Number(v.toPrecision(8)));
  return String(v);
}

/** The key holding `key`'s total, if the values have one: sweep ← max_sweeps, iteration ← n_iter, step ← steps_total. */
function totalKeyOf(key: string, values: Record<string, unknown>): string | undefined {
  const candidates = Object.keys(values).filter((k) => k !== key && typeof values[k] === 'number');
  return candidates.find((k) => {
    const m = /^(?:max|n|total|num)_(.+?)s?$/.exec(k) ?? /^(.+?)s?_(?:total|max)$/.exec(k);
    return m !== null && m[1]!.length >= 3 && key.startsWith(m[1]!);
  });
}

/** "sweep 7/20, E -15.4066": a counter and its total read as one value. */
function valueTexts(values: Record<string, unknown>): string[] {
  const totals = new Map<string, string>();
  for (const [k, v] of Object.entries(values)) {
    const total = typeof v === 'number' ? totalKeyOf(k, values) : undefined;
    if (total && !totals.has(total)) totals.set(k, total);
  }
  const shownAsTotal = new Set(totals.values());
  return Object.entries(values)
    .filter(([k]) => !shownAsTotal.has(k) || totals.has(k))
    .map(([k, v]) => (totals.has(k) ? `${k} ${valueText(v)}/${valueText(values[totals.get(k)!])}` : `${k} ${valueText(v)}`));
}

export function simulationLine(s: Omit<LiveSimulation, 'line'>): string {
  const values = valueTexts(s.progress?.values ?? {});
  const parts = [values.length ? values.join(', ') : 'no progress reported'];
  const notes: string[] = [];
  if (s.attempt > 1) notes.push(`attempt ${s.attempt}`);
  if (s.checkpoint) notes.push(`checkpoint ${s.checkpoint.files} file(s), ${Math.round(s.checkpoint.bytes / 1024)} KiB, ${s.checkpoint.uploads} upload(s)${s.checkpoint.restoredAtAttempt ? ', restored' : ''}`);
  if (notes.length) parts.push(`(${notes.join('; ')})`);
  if (s.elapsedMs !== null) parts.push(duration(s.elapsedMs));
  if (s.checkpointLimit) parts.push(`— checkpoint not saved: ${checkpointBreachLine(s.checkpointLimit)}`);
  if (s.waitingForDisk) parts.push(`— waiting for disk space: ${describeShortage(s.waitingForDisk)}; free space on ${s.waitingForDisk.mount}`);
  else if (s.lastFailure) parts.push(`— last failure${s.lastFailure.type ? ` [${s.lastFailure.type}]` : ''}: ${s.lastFailure.message.slice(0, 600)}`);
  return `${labelText(s.label, s.activity)}: ${parts.join(' ')}`;
}

function lastFailureOf(a: PendingActivity): LiveSimulation['lastFailure'] {
  const f = a.lastFailure;
  if (!f?.message) return null;
  return { type: f.applicationFailureInfo?.type ?? null, message: f.message };
}

/** Sandbox runs among `pending` (the raw describe response's pendingActivities), with their progress. */
export function liveSimulations(pending: readonly PendingActivity[] | null | undefined): LiveSimulation[] {
  const out: LiveSimulation[] = [];
  for (const a of pending ?? []) {
    const details = decode(a);
    if (!('runId' in details || 'phase' in details || 'progress' in details)) continue;
    const state = RunStateDetails.safeParse({ progress: details.progress, checkpoint: details.checkpoint, checkpointLimit: details.checkpointLimit });
    const base = {
      activity: a.activityType?.name ?? 'activity',
      label: typeof details.label === 'string' ? details.label : null,
      attempt: a.attempt ?? 1,
      elapsedMs: typeof details.elapsedMs === 'number' ? details.elapsedMs : null,
      progress: state.success ? state.data.progress ?? null : null,
      checkpoint: state.success ? state.data.checkpoint ?? null : null,
      checkpointLimit: state.success ? state.data.checkpointLimit ?? null : null,
      waitingForDisk: details.phase === 'waiting-for-disk' ? (HostDiskShortage.safeParse(details.hostDisk).data ?? null) : null,
      lastFailure: lastFailureOf(a),
    };
    out.push({ ...base, line: simulationLine(base) });
  }
  return out;
}
