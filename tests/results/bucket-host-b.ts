// Host B of tests/results/bucket-hosts.test.ts, a process of its own with its own state dir, sharing
// only the bucket with host A: it writes one evidence report (the real writeReport, its artifact store
// the bucket) and records its share of a campaign's runs that host A opened, through the results
// activities a worker runs. Argument: { records: RunRecord[], reportWorkflowId } as JSON.
import { createResultsActivities } from '../../activities/results/index.js';
import { artifactStore } from '../../lib/artifacts/store.js';
import type { RunRecord } from '../../schemas/campaign.js';
import { writeHostileReport } from './hostile-report.js';

const { records, reportWorkflowId } = JSON.parse(process.argv[2]!) as { records: RunRecord[]; reportWorkflowId: string };
const report = await writeHostileReport({ stateDir: process.env.PHYSVEC_STATE_DIR, workflowId: reportWorkflowId, store: artifactStore() });
const acts = createResultsActivities();
await Promise.all(records.map((r) => acts.recordRun(r.workflowId === reportWorkflowId ? { ...r, metrics: { ...r.metrics!, reportPath: report.htmlPath } } : r)));
