// The `progress` query of a reproduction: what a person (or `physvec status`) sees while it runs.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { LlmLedger } from '../../schemas/llm.js';
import type { RunStatus } from '../../schemas/verdict.js';
import type { StageTiming } from '../shared/stage-clock.js';


export interface HumanEvent {
  at: number;
  kind: 'pause' | 'resume' | 'replace-script' | 'approve' | 'stop';
  note?: string;
  stage: string;
}

export interface ReproductionProgress {
  taskId: string;
  stage: string;
  iteration: number;
  status: RunStatus;
  scripted: boolean;
  substitution?: string;
  unit: { function: string; judge: string }[];
  integration: { runFunction: string; correctRatio: number; failedLevel: number | null }[];
  /** `fullRunFailure`: why the full run failed, first line (e.g. "full script run exceeded its 300 s CPU limit after …"). */
  programmingHistory: { iteration: number; unitAccuracy: number; integrationAccuracy: number; executable: boolean; fullRunFailure?: string }[];
  rubric?: { gradeMean: number | null; failed: number; available: boolean };
  assertions: { case: string; judge: string }[];
  convergence: { case: string; values: unknown[]; converged: boolean }[];
  tokens: LlmLedger['total'];
  ledger: LlmLedger;
  timings: StageTiming[];
  human: HumanEvent[];
  message?: string;
}

export const progressQuery = defineQuery<ReproductionProgress>('progress');
export const stopSignal = defineSignal<[string?]>('stop');
export const resumeSignal = defineSignal<[string?]>('resume');
export const approveSignal = defineSignal<[string?]>('approve');
export const pauseSignal = defineSignal<[string?]>('pause');
/** Replace the script with an edited one; accepted at the next stage boundary after a structure check. */
export const replaceScriptUpdate = defineUpdate<{ accepted: boolean; problems: string[] }, [{ script: string; note?: string }]>('replaceScript');

