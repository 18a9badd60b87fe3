// The end of every run that asks models (reproduction, baselines): the `report` stage, the evidence
// report written whatever ended the run (also after a cancellation), then the final `Verdict` and the
// memo the UI shows. A report that cannot be written does not hide the verdict: it is said in the message.
import { CancellationScope, upsertMemo } from '@temporalio/workflow';
import type { PipelineActivities } from '../../activities/pipeline/index.js';
import { light } from './activities.js';
import { describeFailure } from './ending.js';
import { markStage, markStatus } from './stage.js';

export type ReportRequest = Parameters<PipelineActivities['writeReport']>[0];
export type WrittenReport = Awaited<ReturnType<PipelineActivities['writeReport']>>;

export async function recordEnding(request: ReportRequest, iteration: number): Promise<{ report?: WrittenReport; message?: string }> {
  const { status } = request;
  let message = request.message;
  markStage('report', iteration, status);
  let report: WrittenReport | undefined;
  try {
    report = await CancellationScope.nonCancellable(() => light.writeReport(request));
  } catch (err) {
    message = `${message ?? status}; the report could not be written: ${describeFailure(err)}`;
  }
  markStatus(status);
  upsertMemo({ verdict: status, reportPath: report?.htmlPath ?? null });
  return { report, message };
}
