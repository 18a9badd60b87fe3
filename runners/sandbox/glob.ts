// Work-dir path globs through picomatch: `**` spans directories, `*` and `?` stay within one segment,
// and dot-files match like any other name (a script's `.npz` cache is collected when asked for).
import picomatch from 'picomatch';

const OPTIONS: picomatch.PicomatchOptions = { dot: true };

export function matchesAny(p: string, globs: readonly string[]): boolean {
  return globs.length > 0 && picomatch([...globs], OPTIONS)(p);
}
