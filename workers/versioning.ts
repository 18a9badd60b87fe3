// Temporal Worker Versioning for physvec's workers (issue 25.1). Every worker of one queue prefix is
// in one worker deployment (named by the prefix) under this process's build id, with PINNED as the
// default behaviour: a reproduction, a campaign and its children run all their workflow tasks and
// activities on workers of the build that started them, so a deploy cannot change a verdict mid-run.
// A worker makes its build the deployment's current version once it polls (new runs go to the
// build started last — a deploy; `--no-promote` keeps an old build draining without taking new runs),
// and says when no run is pinned to its build any more. PHYSVEC_WORKER_VERSIONING=0 turns it off
// (unversioned workers, as before: e.g. a server without the deployment APIs).
import { setTimeout as delay } from 'node:timers/promises';
import type { NativeConnection, WorkerDeploymentOptions } from '@temporalio/worker';
import proto from '@temporalio/proto';
import { buildId } from '../lib/temporal/build-id.js';
import { queuePrefix } from '../lib/temporal/task-queues.js';

export const VERSIONING_ENV = 'PHYSVEC_WORKER_VERSIONING';

export function workerVersioningEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[VERSIONING_ENV]?.trim() !== '0';
}

/** The deployment of this process's queues: one per queue prefix, so test families and second deployments stay apart. */
export function deploymentName(env: NodeJS.ProcessEnv = process.env): string {
  return queuePrefix(env);
}

export function deploymentOptions(env: NodeJS.ProcessEnv = process.env): WorkerDeploymentOptions | undefined {
  if (!workerVersioningEnabled(env)) return undefined;
  return { version: { deploymentName: deploymentName(env), buildId: buildId(env) }, useWorkerVersioning: true, defaultVersioningBehavior: 'PINNED' };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes this build the current version of its deployment. The version exists on the server only
 * once one of its workers has polled, so this retries (every 300 ms, up to `withinMs`); a version
 * whose task queues are not all polling yet (the simulation worker starts after the orchestration
 * one) is promoted anyway — the missing queue's tasks wait for its workers as they always did.
 */
export async function promoteBuild(connection: NativeConnection, namespace: string, opts: { withinMs?: number; signal?: AbortSignal } = {}): Promise<'promoted' | 'already current' | 'gave up'> {
  const version = deploymentOptions()?.version;
  if (!version) return 'already current';
  const deadline = Date.now() + (opts.withinMs ?? 120_000);
  for (;;) {
    try {
      const current = await currentBuild(connection, namespace);
      if (current === version.buildId) return 'already current';
      await connection.workflowService.setWorkerDeploymentCurrentVersion({
        namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        ignoreMissingTaskQueues: true,
        identity: `physvec worker ${version.buildId}`,
      });
      return 'promoted';
    } catch (err) {
      if (opts.signal?.aborted || Date.now() > deadline) return 'gave up';
      void err; // not registered yet (the first poll has not reached the server), or a concurrent promotion: retry
      await sleep(300);
    }
  }
}

/** The build id new runs go to (the deployment's current version), or undefined when none is set. */
export async function currentBuild(connection: Pick<NativeConnection, 'workflowService'>, namespace: string, name: string = deploymentName()): Promise<string | undefined> {
  try {
    const res = await connection.workflowService.describeWorkerDeployment({ namespace, deploymentName: name });
    const info = res.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion;
    return info?.buildId ?? undefined;
  } catch {
    return undefined; // no deployment of that name yet
  }
}

/** DRAINING / DRAINED / undefined (still current or ramping) for this build's version. */
export async function drainage(connection: NativeConnection, namespace: string): Promise<'draining' | 'drained' | undefined> {
  const version = deploymentOptions()?.version;
  if (!version) return undefined;
  const res = await connection.workflowService.describeWorkerDeploymentVersion({ namespace, deploymentVersion: { deploymentName: version.deploymentName, buildId: version.buildId } });
  const status = res.workerDeploymentVersionInfo?.drainageInfo?.status;
  const { VersionDrainageStatus } = proto.temporal.api.enums.v1;
  if (status === VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINED) return 'drained';
  if (status === VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINING) return 'draining';
  return undefined;
}

/**
 * While the worker runs: once its build is no longer current, says so, and says when no run is
 * pinned to it any more (the server's drainage status), so an operator knows when to stop it.
 */
export async function watchDrainage(connection: NativeConnection, namespace: string, say: (line: string) => void, signal: AbortSignal, everyMs = 30_000): Promise<void> {
  const version = deploymentOptions()?.version;
  if (!version) return;
  let told: string | undefined;
  while (!signal.aborted) {
    await delay(everyMs, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) return;
    const state = await drainage(connection, namespace).catch(() => undefined);
    if (state && state !== told) {
      told = state;
      say(
        state === 'drained'
          ? `build ${version.buildId}: drained — no run is pinned to it any more and new runs go to the current build; this worker can stop`
          : `build ${version.buildId}: draining — a newer build takes new runs; this worker keeps serving the runs pinned to ${version.buildId}`,
      );
    }
  }
}
