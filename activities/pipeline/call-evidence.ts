// Read each run's call recording (CALLS_FILE among the files it produced) into the compact per-case
// evidence the workflow's suspect ranking uses. A run without a readable recording (Julia, killed,
// recorded by an older runtime) simply has none: the ranking then falls back to who called what.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { RunDigest } from '../../schemas/pipeline.js';
import { CALLS_FILE } from '../../schemas/script-markers.js';
import { CallsFile, functionValues, type CaseCalls } from '../../lib/verification/call-records.js';

/** The recording of one run, or undefined. */
export async function readCalls(store: ArtifactStore, run: Pick<RunDigest, 'files'>): Promise<CallsFile | undefined> {
  const file = run.files.find((f) => f.path === CALLS_FILE);
  if (!file) return undefined;
  try {
    const parsed = CallsFile.safeParse(JSON.parse(await store.getText(file.ref)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Per run (its id is the case), what each recorded function returned and was given. */
export async function caseCalls(store: ArtifactStore, runs: RunDigest[]): Promise<CaseCalls[]> {
  const out: CaseCalls[] = [];
  for (const run of runs) {
    const file = await readCalls(store, run);
    if (file) out.push({ case: run.id, functions: functionValues(file) });
  }
  return out;
}
