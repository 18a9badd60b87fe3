// What a reproduction sets up before its first stage: limits, the agents and their budget, the
// progress a person queries, the stage clock and the human-in-the-loop controls.
import { setHandler } from '@temporalio/workflow';
import { PipelineLimits, type ReproductionInput } from '../../schemas/pipeline.js';
import type { ReproductionStage } from '../../schemas/agent-roles.js';
import { emptyLedger } from '../../lib/llm/accounting.js';
import { startFrame, type RunFrame } from '../shared/run-frame.js';
import { emptyRecord, type RunRecord } from '../shared/run-record.js';
import { HumanControls } from './human.js';
import { progressQuery, type ReproductionProgress } from './progress.js';

export interface Reproduction extends RunFrame<ReproductionProgress> {
  input: ReproductionInput & { pauseAfter: string[]; budget: NonNullable<ReproductionInput['budget']> };
  limits: PipelineLimits;
  human: HumanControls;
  record: RunRecord;
  /** Enter a stage: its clock and search attributes, then a stop a person asked for ends the run. */
  enter: (stage: ReproductionStage, iteration?: number) => void;
  /** Copy the agents' spend into the progress (the query and the report read it). */
  syncTokens: () => void;
}

export function startReproduction(rawInput: ReproductionInput): Reproduction {
  const limits = PipelineLimits.parse(rawInput.limits ?? {});
  const input = { ...rawInput, pauseAfter: rawInput.pauseAfter ?? [], budget: rawInput.budget ?? {} };
  const frame = startFrame(input.models, input.budget, (): ReproductionProgress => ({
    taskId: '', stage: 'prepare', iteration: 0, status: 'running', scripted: false,
    unit: [], integration: [], programmingHistory: [], assertions: [], convergence: [],
    tokens: emptyLedger().total, ledger: emptyLedger(), timings: [], human: [],
  }), (p) => p.timings);
  const { agents, clock, progress } = frame;
  const syncTokens = () => {
    progress.ledger = agents.ledger;
    progress.tokens = agents.ledger.total;
    progress.scripted = agents.scripted;
  };
  setHandler(progressQuery, () => {
    syncTokens();
    return progress;
  });
  const record = emptyRecord();
  const human = new HumanControls(progress, input.pauseAfter, () => record.ctx?.language ?? 'python');
  const enter = (stage: ReproductionStage, iteration = 0) => {
    clock.enter(stage, iteration);
    human.checkStop();
  };
  return { ...frame, input, limits, human, record, enter, syncTokens };
}
