// An explicit move of a running reproduction or campaign to another build (issue 25.2): runs are
// pinned to the build that started them (workers/versioning.ts); an operator who wants a long
// campaign on a newer build moves it with a pinned versioning override. Its next workflow task is
// replayed by the new build's code — safe because every workflow change is behind patched() and CI
// replays every earlier build's committed histories. The override is inherited by the run's
// children and continue-as-new runs.
import proto from '@temporalio/proto';
import type { Connection } from '@temporalio/client';
import { BadInputError } from '../errors.js';

export interface UpgradeResult {
  workflowId: string;
  from: string;
  to: string;
}

/** Pins running workflow `workflowId` to build `toBuild` of its deployment (a version that has polled). */
export async function upgradeRun(connection: Pick<Connection, 'workflowService'>, namespace: string, workflowId: string, toBuild: string): Promise<UpgradeResult> {
  const described = await connection.workflowService.describeWorkflowExecution({ namespace, execution: { workflowId } });
  const info = described.workflowExecutionInfo;
  const { WorkflowExecutionStatus } = proto.temporal.api.enums.v1;
  if (info?.status !== WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) throw new BadInputError(`${workflowId} is not running: only a running run can move to another build`);
  const deploymentName = info.versioningInfo?.deploymentVersion?.deploymentName;
  if (!deploymentName) throw new BadInputError(`${workflowId} is not pinned to a build (started by unversioned workers): nothing to upgrade`);
  const from = info.versioningInfo?.deploymentVersion?.buildId ?? 'unversioned';
  const version = await connection.workflowService
    .describeWorkerDeploymentVersion({ namespace, deploymentVersion: { deploymentName, buildId: toBuild } })
    .catch(() => undefined);
  if (!version?.workerDeploymentVersionInfo) {
    throw new BadInputError(`build ${toBuild} has no workers in deployment ${deploymentName}: start \`physvec worker\` of that build first (a run moved to a build nobody serves would wait)`);
  }
  await connection.workflowService.updateWorkflowExecutionOptions({
    namespace,
    workflowExecution: { workflowId },
    workflowExecutionOptions: {
      versioningOverride: {
        pinned: { behavior: proto.temporal.api.workflow.v1.VersioningOverride.PinnedOverrideBehavior.PINNED_OVERRIDE_BEHAVIOR_PINNED, version: { deploymentName, buildId: toBuild } },
      },
    },
    updateMask: { paths: ['versioning_override'] },
  });
  return { workflowId, from, to: toBuild };
}
