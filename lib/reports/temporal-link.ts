// Where a report links a run in the Temporal Web UI: the UI address from the dev-server settings
// (lib/temporal/connection.ts `uiUrl`, PHYSVEC_UI_URL / PHYSVEC_UI_PORT override it), then the UI's
// own route for one execution, `/namespaces/<ns>/workflows/<workflow id>/<run id>/history`.
import { temporalTarget, uiUrl } from '../temporal/connection.js';

export function runUiUrl(workflowId: string, runId?: string): string {
  const workflow = uiUrl(workflowId);
  return runId ? `${workflow}/${encodeURIComponent(runId)}/history` : workflow;
}

/** The Web UI's workflow list with a visibility query filled in (`?query=`), e.g. every physvec run. */
export function uiQueryUrl(query: string): string {
  return `${uiUrl()}/namespaces/${encodeURIComponent(temporalTarget().namespace)}/workflows?query=${encodeURIComponent(query)}`;
}
