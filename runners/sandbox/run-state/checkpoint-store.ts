// Where one run's checkpoints are stored: a store of their own under the artifact store
// (<artifacts or bucket prefix>/checkpoints/<run key>/), named by workflow run and activity, so every attempt of the
// run, on any worker sharing the store, finds them. Nothing else refers to these blobs, so removing
// a superseded snapshot's files (checkpoint-retention.ts) can never take another run's.
import { createHash } from 'node:crypto';
import type { ArtifactStore } from '../../../lib/artifacts/store.js';

interface RunKey {
  workflowId: string;
  runId: string;
  activityId: string;
}

export function checkpointStoreFor(store: ArtifactStore, run: RunKey): ArtifactStore {
  const key = createHash('sha256').update(`${run.workflowId}\n${run.runId}\n${run.activityId}`).digest('hex').slice(0, 32);
  return store.child(`checkpoints/${key}`);
}
