// The agent roles and stages of the PhysVEC protocol (paper Sec. II) and of the baselines (Sec. III.1).
// A model call is keyed by (role, stage, iteration): the workflows ask by these names, the CLI
// checks `--role-model` against them, and cassettes (data/cassettes, scripts/make-cassettes.ts) are
// matched by them — one list for all.
import { z } from 'zod';

/** The PhysVEC pipeline's roles, in the order they first speak. */
export const PipelineRole = z.enum([
  'author', 'coder', 'unit-test-writer', 'repairer', 'rubric-grader', 'rubric-consistency', 'assertion-writer', 'assertion-judge', 'convergence-writer',
]);
export type PipelineRole = z.infer<typeof PipelineRole>;

/**
 * The roles whose prompts must never carry a truth: they write or edit code that the truths then
 * check (the script, its unit tests, the assertion variants, the convergence schedules). The
 * rubric graders read no truth anyway; the assertion judge is the one role shown truths, by design.
 */
export const SCRIPT_WRITING_ROLES: readonly string[] = ['author', 'coder', 'unit-test-writer', 'repairer', 'assertion-writer', 'convergence-writer', 'react-repairer'];

/** Every role a workflow asks a model: the pipeline's, then the ReAct baselines' own repairer. */
export const AgentRole = z.enum([...PipelineRole.options, 'react-repairer']);
export type AgentRole = z.infer<typeof AgentRole>;

/** The reproduction's stages, in order (`Stage` search attribute, progress, report timings). */
export const ReproductionStage = z.enum(['prepare', 'author', 'programming', 'scientific', 'convergence', 'final', 'report']);
export type ReproductionStage = z.infer<typeof ReproductionStage>;

/** Stages after which a person may ask a reproduction to pause (`--pause-after`). */
export const PausableStage = ReproductionStage.extract(['author', 'programming', 'scientific', 'convergence']);
export type PausableStage = z.infer<typeof PausableStage>;

/**
 * Stages that only baselines have: the ReAct loops (named by framework, so ReAct and ReAct-RAG calls
 * never share a cassette key) and the one scoring pass every baseline gets (`evaluation`).
 */
export const BaselineStage = z.enum(['react', 'react-rag', 'evaluation']);
export type BaselineStage = z.infer<typeof BaselineStage>;

/** Every stage a workflow that asks models is in. */
export const WorkflowStage = z.enum([...ReproductionStage.options, ...BaselineStage.options]);
export type WorkflowStage = z.infer<typeof WorkflowStage>;

/** Stages whose verifier passes ask models (the stage argument of a programming / scientific pass). */
export type VerifierStage = Extract<WorkflowStage, 'programming' | 'scientific' | 'evaluation'>;

/** The (role, stage) of a model call as the workflows make it: what a workflow's cassette entries are keyed by. */
export interface WorkflowCallKey {
  role: AgentRole;
  stage: WorkflowStage;
}
