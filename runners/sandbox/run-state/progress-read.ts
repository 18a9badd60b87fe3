// The script's latest progress (physvec_runtime.progress writes one small JSON file, atomically
// replaced): read, validated and bounded; anything malformed is ignored, never fatal.
import { ProgressFile, type SimulationProgress } from '../../../schemas/run-state.js';
import { readConfinedFile } from './confined-read.js';

const MAX_PROGRESS_BYTES = 16 * 1024;

export async function readProgress(file: string): Promise<SimulationProgress | null> {
  const read = await readConfinedFile(file, MAX_PROGRESS_BYTES);
  if (!read.ok) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(read.content.toString('utf8'));
  } catch {
    return null;
  }
  const parsed = ProgressFile.safeParse(doc);
  if (!parsed.success) return null;
  return { values: parsed.data.values, at: Math.round(parsed.data.t * 1000) };
}
