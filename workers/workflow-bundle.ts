// The workflow bundle workers load. Built once per process (webpack's chatter kept out of the
// terminal), or read from a file built beforehand (PHYSVEC_WORKFLOW_BUNDLE, written by
// scripts/build-workflow-bundle.ts): the test runner builds one for the whole suite so that no
// worker of any test file spends ~30 s bundling the same code again.
import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundleOption } from '@temporalio/worker';
import { repoRoot } from '../lib/paths.js';
import { TRACING_WORKFLOW_MODULE, tracingActive } from './telemetry/tracing.js';

export const WORKFLOWS_PATH = path.join(repoRoot, 'workflows', 'index.ts');
export const WORKFLOW_BUNDLE_ENV = 'PHYSVEC_WORKFLOW_BUNDLE';

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };

/** `traced`: with the OpenTelemetry workflow interceptors (workers/telemetry/tracing.ts). */
export function buildWorkflowBundle(traced = tracingActive()): ReturnType<typeof bundleWorkflowCode> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: traced ? [TRACING_WORKFLOW_MODULE] : [], logger: quiet });
}

let bundle: Promise<WorkflowBundleOption> | undefined;
export function workflowBundle(): Promise<WorkflowBundleOption> {
  // A prebuilt bundle has no tracing interceptors: a traced worker builds its own.
  const prebuilt = tracingActive() ? undefined : process.env[WORKFLOW_BUNDLE_ENV];
  bundle ??= prebuilt ? Promise.resolve({ codePath: prebuilt }) : buildWorkflowBundle();
  return bundle;
}
