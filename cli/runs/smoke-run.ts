// Start the smoke reproduction of a task that carries a `smoke.script`, and wait for it.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { repoRoot } from '../../lib/paths.js';
import { badInputFromZod, BadInputError } from '../../lib/errors.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { queuedRunAttributes } from './queued-attributes.js';
import { artifactStore } from '../../lib/artifacts/store.js';
import type { smokeReproduction } from '../../workflows/smoke.js';

export const SmokeTask = z.object({
  id: z.string().optional(),
  topic: z.string().default('dmrg'),
  smoke: z.object({ script: z.string().min(1), timeoutMs: z.number().int().positive().optional() }),
});

export async function readSmokeTask(file: string) {
  let raw: unknown;
  try {
    raw = JSON.parse((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new BadInputError(`${file}: not readable JSON (${(err as Error).message}); fix the file and retry`, file);
  }
  const parsed = SmokeTask.safeParse(raw);
  if (!parsed.success) throw badInputFromZod(parsed.error, file);
  return { ...parsed.data, id: parsed.data.id ?? path.basename(file, '.json') };
}

export async function startSmoke(client: Client, taskFile: string, opts: { waitSeconds?: number } = {}) {
  const task = await readSmokeTask(taskFile);
  const scriptPath = path.resolve(repoRoot, task.smoke.script);
  const script = await readFile(scriptPath, 'utf8').catch(() => {
    throw new BadInputError(`${taskFile}: smoke.script: ${scriptPath} does not exist`, taskFile, 'smoke.script');
  });
  const ref = await artifactStore().put(script, { name: 'main.py', mediaType: 'text/x-python' });
  const workflowId = `smoke-${task.id}-${randomUUID().slice(0, 8)}`;
  const handle = await client.workflow.start<typeof smokeReproduction>('smokeReproduction', {
    workflowId,
    taskQueue: taskQueues().orchestration,
    args: [{
      taskId: task.id,
      topic: task.topic,
      waitSeconds: opts.waitSeconds,
      request: { language: 'python', entry: 'main.py', files: [{ path: 'main.py', ref }], timeoutMs: task.smoke.timeoutMs ?? 120_000, label: task.id },
    }],
    typedSearchAttributes: queuedRunAttributes({ taskId: task.id, topic: task.topic, framework: 'smoke', model: 'none' }),
  });
  return { handle, task, workflowId };
}

