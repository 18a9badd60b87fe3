// Writes the production workflow bundle to a file, for workers started with PHYSVEC_WORKFLOW_BUNDLE
// pointing at it (scripts/run-tests.ts builds one per suite run).
//   node --import tsx scripts/build-workflow-bundle.ts <out.js>
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildWorkflowBundle } from '../workers/workflow-bundle.js';

const out = process.argv[2];
if (!out || out === '--help' || out === '-h') {
  console.error('usage: node --import tsx scripts/build-workflow-bundle.ts <out.js>   (writes the workflow bundle there)');
  process.exit(out ? 0 : 2);
}
const { code } = await buildWorkflowBundle();
mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
// Whole or not at all: a reader never sees half a bundle.
writeFileSync(`${out}.tmp`, code);
renameSync(`${out}.tmp`, out);
