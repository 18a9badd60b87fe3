// Matplotlib's font list, built once (scripts/bootstrap.sh, step 4) instead of in every run: a
// fresh MPLCONFIGDIR makes matplotlib scan every font on the host (~90 ms per run). The prebuilt
// directory stays read-only; each run gets a copy of its small fontlist JSON in its own, writable
// MPLCONFIGDIR (matplotlib ignores a config dir it cannot write and rebuilds in a temp dir).
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { venvDir } from '../../lib/paths.js';

export const PREBUILT_MPL_DIR = path.join(venvDir, 'share', 'physvec-matplotlib');

/** Copy the prebuilt font list into `mplConfigDir`; false (the run builds its own) when there is none. */
export function seedMatplotlibCache(mplConfigDir: string): boolean {
  let lists: string[];
  try {
    lists = readdirSync(PREBUILT_MPL_DIR).filter((f) => /^fontlist-v\d+\.json$/.test(f));
  } catch {
    return false;
  }
  if (lists.length === 0) return false;
  try {
    mkdirSync(mplConfigDir, { recursive: true });
    for (const f of lists) copyFileSync(path.join(PREBUILT_MPL_DIR, f), path.join(mplConfigDir, f));
    return true;
  } catch {
    return false;
  }
}
