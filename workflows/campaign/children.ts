// Which child workflow runs one (task, model, framework, trial), with what input, under what id and
// search attributes. PhysVEC is the `reproduction` workflow; the baselines are engineer-owned
// workflows of their own (`reactBaseline` for ReAct and ReAct-RAG, `oneShotBaseline` for 1-shot).
import { ParentClosePolicy, type ChildWorkflowOptions } from '@temporalio/workflow';
import type { CampaignSpec, RunKey, RunMetrics } from '../../schemas/campaign.js';
import type { RunStatus } from '../../schemas/verdict.js';
import { SA } from '../../temporal-config/search-attributes.js';
import { childWorkflowId, modelForRun } from '../../lib/campaign/keys.js';
import { isScriptedModel } from '../../lib/llm/model-id.js';

export interface ChildCall {
  workflowType: 'reproduction' | 'reactBaseline' | 'oneShotBaseline';
  options: ChildWorkflowOptions & { args: unknown[] };
}

/** `taskQueue`: where the child runs — the campaign's own queue when a campaign starts it. */
export function childCall(campaignId: string, spec: CampaignSpec, run: RunKey, taskQueue: string): ChildCall {
  const defaultModel = modelForRun(run.model, run.taskId, run.trial);
  const common = {
    taskFile: run.taskFile,
    toolchain: spec.toolchain,
    models: { defaultModel, roles: {} },
    budget: spec.budget,
    limits: spec.limits,
  };
  const workflowType = run.framework === 'physvec' ? 'reproduction' : run.framework === '1-shot' ? 'oneShotBaseline' : 'reactBaseline';
  const input = run.framework === 'physvec' ? { ...common, pauseAfter: [], ...(spec.size === 'full' ? { size: 'full' as const } : {}) } : { ...common, rag: run.framework === 'react-rag' };
  return {
    workflowType,
    options: {
      workflowId: childWorkflowId(campaignId, run.key),
      taskQueue,
      args: [input],
      // A campaign that is cancelled or terminated asks its runs to stop rather than killing them
      // mid-activity; continue-as-new drains its children first, so this never hits a live run there.
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      // What the Temporal UI shows for the run (user metadata): which cell of the campaign it is.
      staticSummary: `${run.framework} on ${run.taskId} with ${defaultModel}, trial ${run.trial} (campaign ${campaignId})`,
      memo: { task: run.taskId, model: defaultModel, framework: run.framework, campaignId },
      typedSearchAttributes: [
        { key: SA.CampaignId, value: campaignId },
        { key: SA.TaskId, value: run.taskId },
        { key: SA.Topic, value: run.topic },
        { key: SA.Model, value: defaultModel },
        { key: SA.Framework, value: run.framework },
        { key: SA.Stage, value: 'queued' },
        { key: SA.Verdict, value: 'running' satisfies RunStatus },
      ],
    },
  };
}

/** Whether a run passed, by the campaign's criterion. */
export function passed(m: RunMetrics | null | undefined, criterion: CampaignSpec['passCriterion']): boolean {
  if (!m) return false;
  return criterion === 'executable' ? m.executable : m.scientificCompleted;
}

/** Metrics of a run whose child failed outright: nothing ran to completion, nothing is claimed. */
export function failureMetrics(run: RunKey, message: string, wallMs: number): RunMetrics {
  return {
    framework: run.framework,
    status: 'error',
    executable: false,
    executableAtIteration: null,
    iterations: 0,
    unitAccuracy: null,
    integrationAccuracy: null,
    tokensIn: 0,
    tokensOut: 0,
    toolCalls: 0,
    llmCalls: 0,
    costUsd: 0,
    scientificCompleted: false,
    scientificIteration: null,
    assertionsPassed: 0,
    assertionsTotal: 0,
    rubricGrade: null,
    wallMs,
    scripted: isScriptedModel(run.model),
    reportPath: null,
    message: message.slice(0, 2000),
  };
}
