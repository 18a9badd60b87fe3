// What a reproduction has done so far, kept whatever ends it (the budget, a stop, an error): the
// evidence report is written from it. The stages append to it as they go.
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { AssertionVerdict, ConvergenceOutcome, PipelineLimits, ProgrammingReport, RepairRecord, RubricOutcome, RunDigest, ScriptSummary, TaskContext } from '../../schemas/pipeline.js';
import type { ReproductionStage } from '../../schemas/agent-roles.js';
import type { Agents } from './agents.js';
import type { RunJobs } from './run-jobs.js';

export interface ScientificRound {
  iteration: number;
  rubric: RubricOutcome;
  assertions: AssertionVerdict[];
}

export interface RunRecord {
  ctx?: TaskContext;
  /** The script as it stands (after the last repair or a person's replacement). */
  script?: ScriptSummary;
  authorScriptRef?: ArtifactRef;
  programmingReports: ProgrammingReport[];
  scientificRounds: ScientificRound[];
  convergence: ConvergenceOutcome[];
  repairs: RepairRecord[];
  finalRun?: RunDigest;
  /** The scientific iteration that passed, if one did. */
  scientificPassedAt: number | null;
}

/** The record once the Author has written a script: every later stage has one to work on. */
export type AuthoredRecord = RunRecord & { ctx: TaskContext; script: ScriptSummary };

export function emptyRecord(): RunRecord {
  return { programmingReports: [], scientificRounds: [], convergence: [], repairs: [], scientificPassedAt: null };
}

/** What every step after prepare works with (the reproduction's stages, a baseline's loop and scoring). */
export interface PipelineEnv {
  agents: Agents;
  ctx: TaskContext;
  limits: PipelineLimits;
  runAll: RunJobs;
}

/** What a reproduction stage after the Author works with. */
export interface StageEnv extends PipelineEnv {
  /** Enter a stage (its clock, search attributes; a stop requested meanwhile ends the run here). */
  enter: (stage: ReproductionStage, iteration?: number) => void;
  record: AuthoredRecord;
}
