// Synthetic run records for the results tests: every field a real campaign records, with defaults
// a test overrides only where it matters.
import type { Framework, RunMetrics, RunRecord } from '../../schemas/campaign.js';

export interface RunSpec {
  campaignId?: string;
  task: string;
  topic?: string;
  model?: string;
  framework?: Framework;
  trial?: number;
  outcome?: RunRecord['outcome'];
  /** null: no metrics (skipped, or a child that failed outright). */
  m?: Partial<RunMetrics> | null;
}

export function run(s: RunSpec): RunRecord {
  const framework = s.framework ?? 'physvec';
  const model = s.model ?? 'scripted:m1';
  const trial = s.trial ?? 1;
  const topic = s.topic ?? 'dmrg';
  const outcome = s.outcome ?? (s.m === null ? 'skipped' : 'done');
  const key = `${s.task}|${model}|${framework}|t${trial}`;
  const metrics: RunMetrics | null = s.m === null
    ? null
    : {
        framework, status: 'passed', executable: false, executableAtIteration: null, iterations: 1,
        unitAccuracy: null, integrationAccuracy: null, tokensIn: 0, tokensOut: 0, toolCalls: 0, llmCalls: 1,
        costUsd: 0, scientificCompleted: false, scientificIteration: null, assertionsPassed: 0, assertionsTotal: 0,
        rubricGrade: null, wallMs: 0, scripted: model.startsWith('scripted:'), reportPath: null,
        ...s.m,
      };
  return {
    key, taskId: s.task, taskFile: `data/tasks/${topic}/${s.task}.json`, topic, model, framework, trial,
    campaignId: s.campaignId ?? 'c1', workflowId: `wf-${key}`, outcome, metrics, recordedAt: '2026-01-01T00:00:00.000Z',
  };
}
