// The records of a baseline run (paper Sec. III.1): its attempts, progress, result and the state the
// framework-specific part fills in.
import { defineQuery } from '@temporalio/workflow';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { CampaignChildResult, Framework } from '../../schemas/campaign.js';
import type { UsageTotals } from '../../schemas/llm.js';
import type { RepairRecord, RunDigest, ScriptSummary } from '../../schemas/pipeline.js';
import type { WorkflowStage } from '../../schemas/agent-roles.js';
import type { PipelineEnv } from '../shared/run-record.js';
import type { RunStatus, Verdict } from '../../schemas/verdict.js';
import type { WrittenReport } from '../shared/evidence.js';

/** One run of the full script inside a baseline's own loop. */
export interface BaselineAttempt {
  iteration: number;
  exitCode: number | null;
  timedOut: boolean;
  /** The error fed back to the repairer (absent when the run succeeded). */
  error?: string;
  /** Why the repair that followed could not be applied (the script then stays as it was). */
  repairError?: string;
}

export interface BaselineResult extends CampaignChildResult {
  framework: Framework;
  status: Verdict;
  scripted: boolean;
  authorScriptRef?: ArtifactRef;
  finalScriptRef?: ArtifactRef;
  figureRef?: ArtifactRef;
  report?: WrittenReport;
  attempts: BaselineAttempt[];
  tokens: UsageTotals;
  message?: string;
}

export interface BaselineProgress {
  framework: Framework;
  taskId: string;
  stage: string;
  iteration: number;
  status: RunStatus;
  attempts: BaselineAttempt[];
  tokens: UsageTotals;
}
export const baselineProgressQuery = defineQuery<BaselineProgress>('progress');

/** What the framework-specific part fills in while it works (kept when the budget stops it midway). */
export interface BaselineState {
  current?: ScriptSummary;
  authorScriptRef?: ArtifactRef;
  attempts: BaselineAttempt[];
  /** First loop iteration whose full script ran; undefined for frameworks without a loop (1-shot). */
  executableAt?: number | null;
  /** A run of exactly `current`, if one happened (reused by the scoring instead of running it again). */
  lastRun?: RunDigest;
  repairs: RepairRecord[];
}

export interface BaselineEnv extends PipelineEnv {
  enter: (stage: WorkflowStage, iteration?: number) => void;
}
