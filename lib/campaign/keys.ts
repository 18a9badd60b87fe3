// Run keys and per-run model names of a campaign. Pure: shared by the plan activity, the campaign
// workflow, the CLI and the tests, so every one of them names a run the same way.

/** Characters a key component keeps; anything else becomes `_` (keys name child workflows and store rows). */
export function sanitizeKeyPart(s: string): string {
  return s.replace(/[^A-Za-z0-9._:+-]+/g, '_');
}

/** `${taskId}/${model}/${framework}/t${trial}`, each part sanitised so `/` only ever separates parts. */
export function runKeyOf(taskId: string, model: string, framework: string, trial: number): string {
  return [taskId, model, framework].map(sanitizeKeyPart).join('/') + `/t${trial}`;
}

/** The (task, model, framework) group a run belongs to: early stop counts passes per group. */
export function groupOf(k: { taskId: string; model: string; framework: string }): string {
  return [k.taskId, k.model, k.framework].map(sanitizeKeyPart).join('/');
}

/** The model a run uses: `{task}` and `{trial}` in the campaign's model string are filled in per run. */
export function modelForRun(model: string, taskId: string, trial: number): string {
  return model.replaceAll('{task}', taskId).replaceAll('{trial}', String(trial));
}

/** Child workflow id: stable, so a replayed or resumed campaign never starts a run twice under two names. */
export function childWorkflowId(campaignId: string, key: string): string {
  return `${campaignId}--${key}`;
}
